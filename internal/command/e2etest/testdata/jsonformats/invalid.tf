# A configuration with an error validation finds without a provider call:
# an argument the resource type does not have.
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

resource "tpf_thing" "typo" {
  name   = "typo"
  colour = "blue"
}
