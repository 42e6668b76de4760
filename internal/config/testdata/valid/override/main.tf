variable "size" {
  type    = number
  default = 1
}

resource "null_resource" "a" {
  count = var.size
  triggers = {
    base = "base"
    kept = "kept"
  }
  lifecycle {
    prevent_destroy = true
  }
}

output "o" {
  value = "base"
}

check "c" {
  assert {
    condition     = var.size > 0
    error_message = "base message"
  }
}
