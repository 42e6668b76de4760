resource "null_resource" "a" {}

resource "null_resource" "a" {}
