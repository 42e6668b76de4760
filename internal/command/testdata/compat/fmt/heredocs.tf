locals {
  a = <<EOT
hello
  world
EOT
    b = <<-EOT
      indented
        more
      EOT
  c = {
    policy = <<POLICY
{
  "Version": "2012-10-17"
}
POLICY
  }
   d = [<<EOF1
x
EOF1
  , "y"]
  e = "${var.x}"
  f = "${var.x}-suffix"
  g = "prefix-${var.x}"
  h = "${var.a}${var.b}"
  i = "%{if var.x}yes%{else}no%{endif}"
  j = "${ var.x }"
  k = "${
    var.cond ? 1 : 2
  }"
  l = "${(var.cond
    ? 1
    : 2)}"
  m = "${upper("${var.x}")}"
  n = ["${var.a}", "${var.b}"]
  o = {key = "${var.v}"}
  p = "$${literal}"
  q = "%%{literal}"
  r = "${var.list[0]}"
  s = "${ {a=1} }"
}
