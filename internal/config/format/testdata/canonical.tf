terraform {
  required_version = ">= 1.5"
}

variable "regions" {
  type        = list(string)
  default     = ["eu-west-1"]
  description = "Regions."
}

resource "null_resource" "n" {
  count = length(var.regions)
  triggers = {
    region = var.regions[count.index]
    name   = "${var.prefix}-${count.index}"
  }

  lifecycle {
    create_before_destroy = true
  }
}
