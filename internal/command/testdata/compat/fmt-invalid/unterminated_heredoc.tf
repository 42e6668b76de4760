x = <<EOT
no end
