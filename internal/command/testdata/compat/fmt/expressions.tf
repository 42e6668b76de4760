locals {
  long_list = ["aaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccccc", "dddddddddddddd", "eeeeeeeeeeeeeeeee", "ffffffffff"]
  multi = [
    "a",
      "b",
"c"
  ]
  trailing = [1,2,3,]
  obj = { a = 1, b = 2, }
  jsonish = {
    "key1": "v1",
    "key2"  : "v2"
  }
  nested = {a = {b = {c = [1, {d = 2}]}}}
  forexpr = [for x in var.list: upper(x) if x != ""]
  formap = {for k,v in var.map: k=>v...}
  splat = var.list[*].id
  legacy = var.list.*.id
  cond = var.a?var.b:var.c
  math = 1+2*3-4/5%6
  neg = -1
  not = !true
  cmp = 1<2&&3>=4||5!=6
  index = var.m["k"]
  call = format("%s-%s",var.a,var.b)
  expand = concat(var.lists...)
  paren = (1 + 2) * 3
  ops = var.a == var.b
  attr_access = var.obj.attr[0].x
  num = 1.50
  exp = 1e3
  str_esc = "tab\there\nnewline \u00e9"
  empty_str = ""
  multiline_call = merge(
    var.a,
      var.b,
    {
      c = 1
    }
  )
}
