terraform {
  required_version = ">= 1.5.0"
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "~> 3.2"
    }
    aws = {
      source                = "registry.terraform.io/hashicorp/aws"
      version               = ">= 5.0"
      configuration_aliases = [aws.secondary]
    }
  }
  backend "s3" {
    bucket = "state"
  }
}

provider "aws" {
  region = var.region
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(var.regions)
  region   = each.key
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "regions" {
  type        = list(string)
  default     = ["eu-west-1", "us-east-1"]
  description = "Regions to deploy into."
}

variable "settings" {
  type = object({
    name    = string
    size    = optional(number, 3)
    tags    = optional(map(string), {})
  })
  default = { name = "x" }
  validation {
    condition     = length(var.settings.name) > 0
    error_message = "The name must not be empty."
  }
}

variable "secret" {
  type      = string
  sensitive = true
  nullable  = false
  ephemeral = true
  default   = "s"
}

variable "legacy" {
  type    = list
  default = []
}

locals {
  name  = "${var.settings.name}-app"
  count = 3
}

resource "null_resource" "counted" {
  count = local.count
  triggers = {
    index = count.index
    name  = local.name
  }
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [triggers["name"]]
    replace_triggered_by  = [terraform_data.marker]
    precondition {
      condition     = count.index >= 0
      error_message = "Impossible."
    }
    postcondition {
      condition     = self.id != ""
      error_message = "No id."
    }
  }
}

resource "aws_instance" "web" {
  for_each = toset(var.regions)
  provider = aws.by_region[each.key]
  ami      = "ami-${each.value}"

  dynamic "ebs_block_device" {
    for_each = [1, 2]
    content {
      device_name = "/dev/sd${ebs_block_device.value}"
    }
  }
  dynamic "network_interface" {
    for_each = [1]
    iterator = nic
    content {
      device_index = nic.key
    }
  }
  lifecycle {
    ignore_changes  = all
    prevent_destroy = false
  }
  depends_on = [null_resource.counted]
}

resource "terraform_data" "marker" {
  input            = local.name
  triggers_replace = [var.region]
  lifecycle {
    enabled = var.region != ""
  }
}

data "aws_ami" "ubuntu" {
  most_recent = true
  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "No AMI."
    }
  }
}

module "net" {
  source   = "./modules/net"
  for_each = toset(var.regions)
  cidr     = "10.0.0.0/16"
  name     = each.key
  providers = {
    aws = aws.by_region[each.key]
  }
  depends_on = [terraform_data.marker]
}

output "subnet_ids" {
  value       = { for k, m in module.net : k => m.subnet_id }
  description = "Subnets."
  sensitive   = false
  depends_on  = [module.net]
  precondition {
    condition     = length(module.net) > 0
    error_message = "No networks."
  }
}

output "workspace" {
  value = "${terraform.workspace}:${tofu.workspace}:${path.module}:${path.root}:${path.cwd}"
}

moved {
  from = null_resource.old
  to   = null_resource.counted[0]
}

moved {
  from = module.old_net
  to   = module.net["eu-west-1"]
}

import {
  for_each = toset(var.regions)
  to       = aws_instance.web[each.key]
  id       = "i-${each.value}"
}

removed {
  from = aws_instance.gone
  lifecycle {
    destroy = false
  }
}

check "health" {
  data "http" "site" {
    url = "https://example.com"
  }
  assert {
    condition     = data.http.site.status_code == 200
    error_message = "Site is down."
  }
}
