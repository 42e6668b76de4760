terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD/main"
}

variable "name" {
  type = string
}

variable "fail" {
  type    = string
  default = null
}

resource "tpf_thing" "a" {
  name = var.name
  fail = var.fail
}

resource "tpf_thing" "b" {
  name        = "b-${var.name}"
  description = tpf_thing.a.id
}

data "tpf_thing" "lookup" {
  id = tpf_thing.a.id
}

output "a_id" {
  value = tpf_thing.a.id
}

output "looked_up" {
  value = data.tpf_thing.lookup.name
}
