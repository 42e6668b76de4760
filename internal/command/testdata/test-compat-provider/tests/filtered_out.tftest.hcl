run "never_runs" {
  assert {
    condition     = output.a_id == "never"
    error_message = "-filter did not leave this file out"
  }
}
