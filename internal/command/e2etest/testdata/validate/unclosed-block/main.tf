locals {
  name = "web"

output "name" {
  value = local.name
}
