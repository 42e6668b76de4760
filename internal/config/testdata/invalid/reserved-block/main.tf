resource "null_resource" "a" {
  locals {
  }
}
