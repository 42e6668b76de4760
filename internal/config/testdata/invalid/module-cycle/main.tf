module "self" {
  source = "./"
}
