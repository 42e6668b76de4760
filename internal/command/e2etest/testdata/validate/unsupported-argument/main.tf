variable "region" {
  type    = string
  defualt = "eu-west-1"
}
