data "http" "a" {}
data "http" "a" {}
