variable "size" {
  type    = number
  default = "large"
}
