locals {
  name = "x"
}

output "o" {
  value = local.nmae
}
