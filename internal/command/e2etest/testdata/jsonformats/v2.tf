# The second configuration of the JSON formats test. Against v1.tf's state
# it plans an update in place, both kinds of replacement, a delete, a move,
# an import, a create, data source reads now and at apply time, and checks
# that pass, fail and cannot be decided yet.
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

variable "orphan_id" {
  type = string
}

resource "tpf_thing" "updated" {
  name        = "updated"
  description = "second"
  tags        = { stage = "two" }
}

resource "tpf_thing" "replaced_cbd" {
  name = "cbd-2"
  lifecycle {
    create_before_destroy = true
  }
}

resource "tpf_thing" "replaced_delete_first" {
  name = "df-2"
}

resource "tpf_thing" "drifted" {
  name        = "drifted"
  description = "as configured"
}

resource "tpf_thing" "secret" {
  name        = "secret"
  secret      = "hunter3"
  description = var.note
  tags        = { plain = "visible", hidden = sensitive("masked") }
}

moved {
  from = tpf_thing.old_name
  to   = tpf_thing.new_name
}

resource "tpf_thing" "new_name" {
  name = "moving"
}

import {
  to = tpf_thing.adopted
  id = var.orphan_id
}

resource "tpf_thing" "adopted" {
  name = "orphan"
}

resource "tpf_thing" "fresh" {
  name = "fresh"
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

data "tpf_thing" "read_later" {
  id = tpf_thing.fresh.id
}

output "stable" {
  value = data.tpf_thing.read_stable.name
}

output "text" {
  value = tpf_thing.updated.name
}

output "number" {
  value = 43
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

output "later" {
  value = data.tpf_thing.read_later.name
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

check "pending" {
  assert {
    condition     = tpf_thing.fresh.id != ""
    error_message = "The fresh thing has no id."
  }
}
