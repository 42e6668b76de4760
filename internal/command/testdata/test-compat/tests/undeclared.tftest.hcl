run "undeclared_resource" {
  command = plan
  assert {
    condition     = terraform_data.missing.output == "x"
    error_message = "not x"
  }
}

run "skipped_after_the_error" {
  command = plan
}
