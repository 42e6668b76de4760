resource "null_resource" "a" {
  lifecycle {
    ignore_changes = ["*"]
  }
}
