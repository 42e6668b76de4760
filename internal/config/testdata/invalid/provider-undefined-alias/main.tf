terraform {
  required_providers {
    tfd = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

module "child" {
  source = "./child"
  providers = {
    tfd.alt = tfd.nonesuch
  }
}
