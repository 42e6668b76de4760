variable "x" {
  type = "string"
}
