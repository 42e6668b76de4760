output "o" {
  value = each.key
}
