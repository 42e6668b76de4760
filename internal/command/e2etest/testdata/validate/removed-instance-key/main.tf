removed {
  from = terraform_data.a[0]
  lifecycle {
    destroy = false
  }
}
