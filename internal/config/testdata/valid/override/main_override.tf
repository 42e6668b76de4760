variable "size" {
  default = 5
}

resource "null_resource" "a" {
  for_each = toset(["a"])
  triggers = {
    base = "override"
  }
}

output "o" {
  value = "override"
}

check "c" {
  assert {
    condition     = var.size > 1
    error_message = "override message"
  }
}
