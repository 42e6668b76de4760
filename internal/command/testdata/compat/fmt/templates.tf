locals {
  strip = "%{~ if var.x ~} yes %{~ else ~} no %{~ endif ~}"
  loop = <<-EOT
    %{ for item in var.items ~}
    - ${item}
    %{ endfor ~}
  EOT
  nested = "${join(",", [for s in var.list : "${s}-x"])}"
  multi_interp = "${
    var.a
  }"
  multi_cond = "${var.a ?
    var.b :
  var.c}"
  heredoc_arg = jsonencode(<<EOT
raw
EOT
  )
  escaped = "a\"b\\c\n"
  dollar = "$$x $${y} %%{z}"
  unicode = "\u00e9\U0001F600"
  paren_interp = "${(var.a)}"
  op_interp = "${var.a + 1}"
  index_interp = "${var.m["k"]}"
  splat_interp = "${var.l[*].id}"
  for_interp = "${[for x in var.l : x]}"
}
