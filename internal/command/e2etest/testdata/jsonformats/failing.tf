# A configuration whose apply fails in the provider, for the apply_errored
# message, and whose check block fails, for a warning diagnostic.
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

resource "tpf_thing" "broken" {
  name = "broken"
  fail = "apply_error"
}

resource "tpf_thing" "fine" {
  name = "fine"
}
