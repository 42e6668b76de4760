provider "null" {
  alias = "a"
}
provider "null" {
  alias = "b"
}
module "m" {
  source = "./m"
  providers = {
    null = null.a
    null = null.b
  }
}
