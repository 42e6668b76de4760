variable "name" {
  type    = string
  default = "first"
  validation {
    condition     = length(var.name) < 12
    error_message = "name too long"
  }
}

variable "parent" {
  type    = string
  default = ""
}

resource "terraform_data" "t" {
  input            = "${var.name}:${var.parent}"
  triggers_replace = var.name
  lifecycle {
    postcondition {
      condition     = var.name != "bad" || self.id == ""
      error_message = "bad object"
    }
  }
}

output "value" {
  value = terraform_data.t.output
  precondition {
    condition     = var.name != "five"
    error_message = "five is not allowed"
  }
}

check "short" {
  assert {
    condition     = length(var.name) < 6
    error_message = "name is not short"
  }
}
