variables {
  name = "fv"
}

run "setup" {
  module {
    source = "./setup"
  }
}

run "apply_with_parent" {
  variables {
    parent = run.setup.seed
  }
  assert {
    condition     = output.value == "fv:seed"
    error_message = "got ${output.value}"
  }
}

run "plan_changes" {
  command = plan
  variables {
    name = "short"
  }
  assert {
    condition     = terraform_data.t.input == "short:"
    error_message = "planned ${terraform_data.t.input}"
  }
}

run "failing_assert" {
  command = plan
  assert {
    condition     = terraform_data.t.input == "nope"
    error_message = "input is ${terraform_data.t.input}"
  }
}

run "expect_var" {
  command = plan
  variables {
    name = "much-too-long-name"
  }
  expect_failures = [var.name]
}

run "expect_output_and_check" {
  command = plan
  variables {
    name = "five"
  }
  expect_failures = [output.value]
}

run "expect_resource" {
  variables {
    name = "bad"
  }
  expect_failures = [terraform_data.t]
}

run "missing_expected" {
  command = plan
  expect_failures = [check.short]
}

run "skipped" {}
