# The first configuration of the JSON formats test: every object the second
# configuration (v2.tf) changes in one way or another.
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

variable "note" {
  type      = string
  default   = "quiet"
  sensitive = true
}

resource "tpf_thing" "updated" {
  name        = "updated"
  description = "first"
  tags        = { stage = "one" }
}

resource "tpf_thing" "replaced_cbd" {
  name = "cbd-1"
  lifecycle {
    create_before_destroy = true
  }
}

resource "tpf_thing" "replaced_delete_first" {
  name = "df-1"
}

resource "tpf_thing" "doomed" {
  name = "doomed"
}

resource "tpf_thing" "drifted" {
  name        = "drifted"
  description = "as configured"
}

resource "tpf_thing" "secret" {
  name        = "secret"
  secret      = "hunter2"
  description = var.note
  tags        = { plain = "visible", hidden = sensitive("masked") }
}

resource "tpf_thing" "old_name" {
  name = "moving"
}

resource "tpf_thing" "orphan" {
  name = "orphan"
}

resource "tpf_thing" "counted" {
  count = 2
  name  = "counted-${count.index}"
}

resource "tpf_thing" "each" {
  for_each = toset(["a", "b"])
  name     = "each-${each.key}"
  lifecycle {
    postcondition {
      condition     = self.size_class == "small"
      error_message = "Things are small unless told otherwise."
    }
  }
}

data "tpf_thing" "read_stable" {
  id = tpf_thing.counted[0].id
}

data "tpf_thing" "read_now" {
  id = tpf_thing.updated.id
}

output "stable" {
  value = data.tpf_thing.read_stable.name
}

output "text" {
  value = tpf_thing.updated.name
}

output "number" {
  value = 42
}

output "flag" {
  value = true
}

output "list" {
  value = [for thing in tpf_thing.counted : thing.name]
}

output "object" {
  value = { name = data.tpf_thing.read_now.name, tags = data.tpf_thing.read_now.tags }
}

output "hidden" {
  value     = tpf_thing.secret.secret
  sensitive = true
}

check "always" {
  assert {
    condition     = tpf_thing.updated.enabled
    error_message = "The updated thing is disabled."
  }
}

check "never" {
  assert {
    condition     = tpf_thing.updated.description == "something else"
    error_message = "The updated thing's description is not \"something else\"."
  }
}
