# hash comment
// slash comment
/* block
   comment */
resource "a" "b" {
  # inside
  x = 1 # trailing hash
  yy = 2 // trailing slash
  zzz = 3 /* trailing block */
  /* leading block */ w = 4

  # comment before nested
  nested {
    // only a comment
  }
  list = [
    1, # one
    2, // two
    # lonely
    3,
  ]
  map = {
    a = 1 # a
    bb = 2
    # between
    ccc = 3
  }
}
#no-space
//no-space
