run "override" {
  override_resource {
    target = terraform_data.t
    values = {
      output = "overridden"
    }
  }
  assert {
    condition     = output.value == "overridden"
    error_message = "got ${output.value}"
  }
}

run "refresh_only" {
  command = plan
  plan_options {
    mode = refresh-only
  }
}

run "replace" {
  plan_options {
    replace = [terraform_data.t]
  }
  variables {
    name = "cli"
  }
  assert {
    condition     = output.value == "cli:"
    error_message = "got ${output.value}"
  }
}
