name = "from-var-file"
