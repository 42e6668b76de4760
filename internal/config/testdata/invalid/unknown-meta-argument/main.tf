module "m" {
  source = "./m"
  lifecycle {
    prevent_destroy = true
  }
}
