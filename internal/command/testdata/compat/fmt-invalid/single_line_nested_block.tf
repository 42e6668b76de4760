resource "x" "w" { nested { a = 1 } }
