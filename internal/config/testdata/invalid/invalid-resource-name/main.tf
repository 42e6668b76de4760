resource "null_resource" "1st" {}
