output "greeting" {
  value = "hello ${var.name}"
}
