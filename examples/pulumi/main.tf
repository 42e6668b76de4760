# A Pulumi resource provider and a Terraform-protocol provider in one
# configuration. tpulumi is Terrane's Pulumi test provider (the executable
# pulumi-resource-tpulumi) and tpf its Terraform-protocol one; both keep
# their objects as JSON files under cloud_dir.
#
# A Pulumi provider is declared with source = "pulumi/NAME": init finds the
# package NAME in Pulumi's plugin directory ($PULUMI_HOME/plugins, by default
# ~/.pulumi/plugins, as `pulumi plugin install resource NAME VERSION` leaves
# it) or in any mirror, plugin cache or dev override holding
# pulumi-resource-NAME, and locks it with an h1: hash like any provider.
#
# widgets is a sub-package of tpulumi: with parameters, init launches tpulumi,
# calls Pulumi's Parameterize with them and records the sub-package it makes
# in the lock file (its block's parameterization attribute). The local name is
# the sub-package's name; its address is registry.opentofu.org/pulumi/widgets.

terraform {
  required_providers {
    tpulumi = {
      source  = "pulumi/tpulumi"
      version = "~> 0.1"
    }
    widgets = {
      source     = "pulumi/tpulumi"
      version    = "~> 0.1"
      parameters = ["widgets"]
    }
    tpf = {
      source  = "registry.terraform.io/terrane/tpf"
      version = ">= 0.1.0"
    }
  }
}

variable "cloud_dir" {
  type        = string
  description = "Directory the test providers keep their objects in."
}

# Pulumi configuration keys become snake_case arguments (rootDir → root_dir).
provider "tpulumi" {
  root_dir = var.cloud_dir
}

provider "widgets" {
  root_dir = var.cloud_dir
}

provider "tpf" {
  root_dir = var.cloud_dir
}

# The Pulumi type tpulumi:index:Thing is the resource type tpulumi_thing;
# its camelCase properties are snake_case attributes, and "id" is the ID the
# provider assigned.
resource "tpulumi_thing" "site" {
  name    = "site"
  content = "hello from a Pulumi provider"
  tags = {
    team = "platform"
  }
  settings = {
    mode  = "manual"
    level = 2
  }
}

# A Terraform-protocol resource that reads Pulumi outputs ...
resource "tpf_thing" "record" {
  name        = "record"
  description = "site ${tpulumi_thing.site.id} holds ${tpulumi_thing.site.content_length} bytes"
}

# ... and a Pulumi resource that reads it back. Changing name replaces the
# object: the Pulumi schema marks it replaceOnChanges.
resource "tpulumi_thing" "mirror" {
  name    = "mirror"
  nonce   = "mirror-1"
  content = tpf_thing.record.id
}

# The sub-package's type widgets:index:Gadget is the resource type
# widgets_gadget.
resource "widgets_gadget" "site" {
  name    = "site-gadget"
  nonce   = "gadget-1"
  content = "made for ${tpulumi_thing.site.id}"
}

# The Pulumi function tpulumi:index:getThing is the data source tpulumi_thing.
data "tpulumi_thing" "site" {
  id = tpulumi_thing.site.id
}

output "site_id" {
  value = tpulumi_thing.site.id
}

output "site_size_class" {
  value = data.tpulumi_thing.site.size_class
}

output "gadget_id" {
  value = widgets_gadget.site.id
}

output "mirror_length" {
  value = tpulumi_thing.mirror.content_length
}
