variable "a" { type = "string" }
variable "b" { type = "list" }
variable "c" { type = "map" }
variable "d" { type = list }
variable "e" { type = map }
variable "f" { type = set }
variable "g" { type = list(string) }
variable "h" {
  type = object({
    name=string
      size = number
    tags = map(string)
  })
  default = {
    name = "x"
    size = 1
    tags = {}
  }
}
variable "i" {
type = "${string}"
}
variable "j" { type = any }
variable "k" {
  type = string
  default = "${var.x}"
  description = "a \"quoted\" description"
  nullable=false
  sensitive = true
  validation {
    condition = length(var.k) > 0
    error_message = "Must not be empty."
  }
}
resource "x" "y" {
  type = "string"
  other = list
}
