locals {
  shout = upper("a", "b")
}

output "shout" {
  value = local.shout
}
