variable "generation" {
  type    = number
  default = 1
}

resource "terraform_data" "sticky" {
  count            = 2
  input            = "generation-${var.generation}"
  triggers_replace = [var.generation]
  lifecycle {
    create_before_destroy = true
  }
  provisioner "local-exec" {
    command = var.generation == 1 ? "true" : "exit 1"
  }
}
