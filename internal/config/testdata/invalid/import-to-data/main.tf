import {
  to = data.terraform_remote_state.a
  id = "x"
}
