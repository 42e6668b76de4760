provider "aws" {
  for_each = toset(["a"])
}
