resource "null_resource" "a" {
  triggers = {
    i = count.index
  }
}
