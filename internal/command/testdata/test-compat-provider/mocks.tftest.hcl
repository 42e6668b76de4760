mock_provider "tpf" {
  mock_resource "tpf_thing" {
    defaults = {
      id = "mocked"
    }
  }
  mock_data "tpf_thing" {
    defaults = {
      name = "mocked data"
    }
  }
}

variables {
  fail = "apply_error"
}

run "mocked" {
  assert {
    condition     = tpf_thing.a.id == "mocked" && tpf_thing.b.description == "mocked"
    error_message = "mock defaults were not used"
  }
  assert {
    condition     = output.looked_up == "mocked data"
    error_message = "mock data was not used: ${output.looked_up}"
  }
}

run "overridden" {
  override_data {
    target = data.tpf_thing.lookup
    values = {
      name = "overridden"
    }
  }
  assert {
    condition     = output.looked_up == "overridden"
    error_message = "the data override was not used"
  }
}

run "failing_assertion" {
  command = plan
  assert {
    condition     = tpf_thing.a.name == "wrong"
    error_message = "the name is ${tpf_thing.a.name}"
  }
}
