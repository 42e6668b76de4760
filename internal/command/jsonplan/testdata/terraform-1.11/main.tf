variable "name" {
  type    = string
  default = "alpha"
}

variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter2"
}

resource "terraform_data" "updated" {
  input = "two"
}

resource "terraform_data" "replaced" {
  triggers_replace = ["v2"]
}

moved {
  from = terraform_data.moved_from
  to   = terraform_data.moved_to
}

resource "terraform_data" "moved_to" {
  input = "moving"
}

resource "terraform_data" "counted" {
  count = 1
  input = count.index
}

removed {
  from = terraform_data.forgotten
  lifecycle {
    destroy = false
  }
}

resource "terraform_data" "unchanged" {
  input = "same"
}

resource "terraform_data" "created" {
  input = { name = var.name, secret = var.secret }
}

output "created_id" {
  value = terraform_data.created.id
}

output "secret" {
  value     = var.secret
  sensitive = true
}

check "name_nonempty" {
  assert {
    condition     = length(var.name) > 0
    error_message = "name must not be empty"
  }
}
