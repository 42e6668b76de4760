terraform {
  required_providers {
    aws = {
      source = "registry.terraform.io/hashicorp/aws"
    }
  }
}

variable "cidr" {
  type = string
}

variable "name" {
  type = string
}

resource "aws_subnet" "this" {
  cidr_block = var.cidr
  tags = {
    Name = var.name
  }
}

output "subnet_id" {
  value = aws_subnet.this.id
}
