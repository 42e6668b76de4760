a = 1
bb = "x"
nested = {
  k = "v"
    kk = <<EOT
x
EOT
}
