provider "tpf" {
  root_dir = "CLOUD/cleanup"
}

run "left_behind" {
  variables {
    fail = "delete_error"
  }
}
