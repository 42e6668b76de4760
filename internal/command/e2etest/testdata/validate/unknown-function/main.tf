locals {
  name = uppercase("web")
}
