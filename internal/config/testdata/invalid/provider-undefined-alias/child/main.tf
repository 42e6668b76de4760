terraform {
  required_providers {
    tfd = {
      source                = "terraform.io/builtin/terraform"
      configuration_aliases = [tfd.alt]
    }
  }
}

resource "terraform_data" "a" {
  provider = tfd.alt
}
