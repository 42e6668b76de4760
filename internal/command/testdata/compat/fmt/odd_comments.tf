resource "a" "b" { # comment after brace
  x = 1 /* inline */ # then hash
  /* multi
  line */
  y = [ # after bracket
    1 /* one */,
    2
  ]
  z = { /* in brace */ k = "v" }
  w = f( # after paren
    1, # first
    2
  )
} # after closing

/* before block */ resource "c" "d" {}

variable "v" { # type legacy with comment
  type = "list" # legacy
}
locals {
  a = 1 // slash
  bb = 2 # hash
  ccc = 3 /* block */
}
