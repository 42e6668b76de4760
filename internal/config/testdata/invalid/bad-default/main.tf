variable "x" {
  type    = number
  default = "not a number"
}
