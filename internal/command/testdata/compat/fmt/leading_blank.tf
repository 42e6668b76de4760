


locals {
  a = 1
}
