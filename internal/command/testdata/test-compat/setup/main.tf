variable "seed" {
  type    = string
  default = "seed"
}
resource "terraform_data" "s" {
  input = var.seed
}
output "seed" {
  value = terraform_data.s.output
}
