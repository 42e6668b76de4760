resource "null_resource" "a" {
  count = 1
  triggers = {
    i = count.idx
  }
}
