resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = "yes"
      error_message = "Fails."
    }
  }
}
