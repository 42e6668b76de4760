provider "tpf" {
  root_dir = "CLOUD/file"
}

provider "tpf" {
  alias    = "setup"
  root_dir = "CLOUD/setup"
}

run "setup" {
  module {
    source = "./setup"
  }
  providers = {
    tpf = tpf.setup
  }
  assert {
    condition     = fileexists("CLOUD/setup/tpf_thing/${output.id}.json")
    error_message = "the aliased provider was not used"
  }
}

run "create" {
  assert {
    condition     = output.looked_up == "from-var-file"
    error_message = "looked up ${output.looked_up}"
  }
  assert {
    condition     = fileexists("CLOUD/file/tpf_thing/${output.a_id}.json") && tpf_thing.b.description == output.a_id
    error_message = "the test file's provider block was not used"
  }
}

run "targeted_plan" {
  command = plan
  variables {
    name = "other"
  }
  plan_options {
    target = [tpf_thing.a]
  }
  assert {
    condition     = tpf_thing.a.name == "other"
    error_message = "the targeted plan planned ${tpf_thing.a.name}"
  }
}

run "unknown_in_plan" {
  command = plan
  variables {
    name = "replaced"
  }
  plan_options {
    replace = [tpf_thing.a]
  }
  assert {
    condition     = tpf_thing.b.description == "x"
    error_message = "known before apply"
  }
}

run "skipped_after_the_error" {}
