module "network" {
  source = "./network"
}

output "o" {
  value = module.netwrk.id
}
