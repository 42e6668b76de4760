module "network" {
  source = "./network"
}

output "o" {
  value = module.network.subnet
}
