moved {
  from = module.a
  to   = null_resource.b
}
