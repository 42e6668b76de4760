variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}

resource "terraform_data" "single" {
  input = {
    name   = "single"
    nested = { list = [1, 2, 3], flag = true }
  }
}

resource "terraform_data" "counted" {
  count = 3
  input = "item-${count.index}"
}

resource "terraform_data" "each" {
  for_each = { a = "alpha", "b c" = "beta gamma" }
  input    = each.value
  triggers_replace = [terraform_data.single.id]
  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "secretive" {
  input = {
    public  = "visible"
    private = var.secret
    list    = ["x", sensitive("y")]
  }
}

module "child" {
  source   = "./modules/child"
  for_each = toset(["one", "two"])
  label    = each.key
}

module "single_child" {
  source = "./modules/child"
  label  = "solo"
}

data "terraform_remote_state" "other" {
  backend = "local"
  config = {
    path = "${path.module}/other.tfstate"
  }
}

check "counted_three" {
  assert {
    condition     = length(terraform_data.counted) == 3
    error_message = "expected three"
  }
}

output "single_id" {
  value = terraform_data.single.id
}

output "secret_out" {
  value     = var.secret
  sensitive = true
}

output "complex" {
  value = {
    ids   = terraform_data.counted[*].id
    each  = { for k, v in terraform_data.each : k => v.output }
    child = { for k, m in module.child : k => m.out }
    num   = 1.5
    nil   = null
  }
  precondition {
    condition     = length(terraform_data.counted) > 0
    error_message = "need some"
  }
}

output "tuple" {
  value = [1, "two", true]
}
