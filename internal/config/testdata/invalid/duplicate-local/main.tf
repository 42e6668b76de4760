locals { a = 1 }
locals {
  a = 2
}
