output "a" {
  value = 1
}

output "a" {
  value = 2
}
