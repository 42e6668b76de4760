output "o" {
  value = var.from_tofu
}
