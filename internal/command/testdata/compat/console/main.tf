variable "name" {
  type    = string
  default = "web"
}

variable "count_n" {
  type    = number
  default = 3
}

variable "enabled" {
  type    = bool
  default = true
}

variable "zones" {
  type    = list(string)
  default = ["us-east-1a", "us-east-1b", "us-east-1c"]
}

variable "ports" {
  type    = map(number)
  default = { http = 80, https = 443 }
}

variable "tags" {
  type    = set(string)
  default = ["b", "a", "c"]
}

variable "settings" {
  type = object({
    size    = number
    labels  = optional(map(string), {})
    comment = optional(string)
  })
  default = { size = 2 }
}

variable "pair" {
  type    = tuple([string, number])
  default = ["x", 1]
}

variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

variable "nothing" {
  type    = string
  default = null
}

variable "anything" {
  default = {
    list   = [1, "two", true]
    nested = { a = { b = [1, 2] } }
  }
}

variable "motd" {
  type    = string
  default = "line one\nline two\n"
}

locals {
  prefix    = "${var.name}-prod"
  names     = [for z in var.zones : "${local.prefix}-${z}"]
  by_zone   = { for i, z in var.zones : z => i }
  servers   = [{ name = "a", port = 80 }, { name = "b", port = 443 }]
  secret    = sensitive("s3cret")
  empty_set = toset([])
  big       = 123456789012345678901234567890
  frac      = 0.1 + 0.2
}
