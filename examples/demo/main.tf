# A small configuration over Terrane's test provider "tpf", whose "cloud" is
# a directory of JSON files (root_dir): one file per object, so every step of
# the demo can be checked by listing that directory.

terraform {
  required_providers {
    tpf = {
      source  = "registry.terraform.io/terrane/tpf"
      version = ">= 0.1.0"
    }
  }
}

variable "cloud_dir" {
  type        = string
  description = "Directory the test provider keeps its objects in."
}

variable "environment" {
  type    = string
  default = "demo"
}

variable "services" {
  type = map(object({
    size = optional(string, "small")
  }))
  default = {
    api    = { size = "large" }
    web    = {}
    worker = {}
  }
}

provider "tpf" {
  root_dir = var.cloud_dir
}

# The network every service refers to.
resource "tpf_thing" "network" {
  name        = "${var.environment}-network"
  description = "shared network"
  tags        = { environment = var.environment }
}

# One object per service, each depending on the network.
resource "tpf_thing" "service" {
  for_each    = var.services
  name        = "${var.environment}-${each.key}"
  size_class  = each.value.size
  description = "on ${tpf_thing.network.id}"
  tags = {
    environment = var.environment
    network     = tpf_thing.network.id
  }
}

# Counted replicas of the worker service.
resource "tpf_thing" "replica" {
  count = 2
  name  = "${var.environment}-worker-${count.index}"
  tags  = { primary = tpf_thing.service["worker"].id }
}

output "network_id" {
  value = tpf_thing.network.id
}

output "service_ids" {
  value = { for name, service in tpf_thing.service : name => service.id }
}
