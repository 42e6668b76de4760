resource "x" {
  a = 1
