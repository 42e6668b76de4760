resource "null_resource" "a" {
  provider = null.west
}
