resource "aws_instance"   "web" {
ami = "ami-123"
    instance_type="t2.micro"
  count=   3
  tags = {
  Name = "web"
      Environment= "prod"
    "quoted key" = 1
  }
  lifecycle {
      create_before_destroy=true
  ignore_changes = [tags,ami]
  }


  network_interface {
     device_index=0
         network_interface_id = "eni-1"
  }
}
resource aws_s3_bucket b {
  bucket="x"
}
data "aws_ami" /* comment between labels */ "ubuntu" {
most_recent = true
}
module "vpc" {source="./vpc"}
provider "aws" { region = "us-east-1" }
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
        version = "~> 5.0"
    }
  }
}
locals {}
locals {
}
variable "empty" {}
