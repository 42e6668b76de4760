resource "a" "b" {
  x = 1
    longer = 2
}

locals {
  y = <<EOT
line
EOT
}
