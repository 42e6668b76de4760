resource "terraform_data" "a" { input = "w" }
resource "terraform_data" "b" {
  count = 1
  input = "y"
}
output "o" { value = terraform_data.a.output }
output "s" {
  value     = "secret"
  sensitive = true
}
resource "terraform_data" "c" { input = var.nope }
