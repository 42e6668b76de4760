check "c" {
  data "null_data_source" "d" {
    count = 1
  }
  assert {
    condition     = length(data.null_data_source.d) == 1
    error_message = "x"
  }
}
