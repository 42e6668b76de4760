resource "x" "y" {
  a = 1
  bbbbbb = 2
  cc = 3

  dddddddddd = 4
  e = 5
  # comment breaks?
  ffff = 6
  g = {
    h = 1
    iiiiii = 2
  }
  jjjjjjjjjjjjjjj = 7
  block {
    x = 1
  }
  k = 8
  l = 9
}
