run "check" {
command=plan
  variables {
    name="x"
  }
  assert {
    condition = output.x=="y"
    error_message = "bad"
  }
}
