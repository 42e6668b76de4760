output "o" {
  value = self.id
}
