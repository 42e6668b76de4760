resource "aws_security_group" "sg" {
  dynamic "ingress" {
    for_each = var.rules
    iterator=rule
    content {
      from_port=rule.value.from
      to_port = rule.value.to
      cidr_blocks=["${rule.value.cidr}"]
    }
  }
  provisioner "local-exec" {
    command = "echo ${self.id}"
    when = destroy
  }
  connection {
    type="ssh"
  }
  depends_on=[aws_instance.web]
  for_each = toset(["a","b"])
  provider=aws.west
}
check "health" {
  assert {
    condition = true
    error_message = "bad"
  }
}
import {
  to=aws_instance.web
  id = "i-123"
}
moved {
  from=aws_instance.a
  to = aws_instance.b
}
