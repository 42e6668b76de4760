resource "terraform_data" "gone" {
  input = 1
}

output "kept" {
  value = "constant"
}
