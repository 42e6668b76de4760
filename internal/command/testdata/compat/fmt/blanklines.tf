locals {
  a = 1



  b = 2
}




resource "x" "y" {}


