variable "count_of_things" {
  type    = number
  default = 2
}

output "total" {
  value = var.count_of_things + "many"
}
