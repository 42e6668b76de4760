output "subnet_id" { value = 1 }
