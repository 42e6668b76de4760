resource "terraform_data" "ok" {
  input = "fine"
}

resource "terraform_data" "broken" {
  input = "will be tainted"
  provisioner "local-exec" {
    command = "exit 1"
  }
}
