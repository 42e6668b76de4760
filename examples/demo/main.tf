# A small configuration over Terrane's test provider "tpf", whose "cloud" is
# a directory of JSON files (root_dir).

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

provider "tpf" {
  root_dir = var.cloud_dir
}
