terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

resource "tpf_thing" "s" {
  name = "setup"
}

output "id" {
  value = tpf_thing.s.id
}
