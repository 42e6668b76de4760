variable "a" {
type = list
default = []
}
variable "b" { type = "string" }
variable "c" {
  type = "map"
}
variable "d" {
    type    = map
}
resource   aws_instance  "web"   {
ami="${var.ami}"
  name = "${var.prefix}-web"
  count = "${length(var.zones)}"
    tags = {
  Name="web"
      Environment = "${var.env}"
  }
  cond = "${
    var.a ?
    1 : 2
  }"
  nested = "${lookup(var.m, "${var.k}")}"
  two = "${var.a}${var.b}"
}
