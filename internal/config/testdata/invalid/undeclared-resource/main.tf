output "o" {
  value = null_resource.missing.id
}
