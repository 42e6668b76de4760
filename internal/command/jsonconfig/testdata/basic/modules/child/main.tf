variable "label" { type = string }

resource "terraform_data" "inner" {
  input = var.label
}

resource "terraform_data" "dependent" {
  input      = terraform_data.inner.output
  depends_on = [terraform_data.inner]
}

output "out" {
  value = terraform_data.dependent.output
}
