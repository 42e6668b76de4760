resource "aws_iam_policy" "p" {
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [
      {
        Action = ["s3:GetObject", "s3:ListBucket"]
        Effect   = "Allow"
          Resource = "*"
      },
    ]
  })
  conditional = var.enabled ? {
    a = 1
  } : {
    a = 2
  }
  for_multi = [
    for x in var.list :
    x
    if x != null
  ]
  map_for = {
    for k, v in var.map :
      k => v
  }
  ops = (
    var.a
    + var.b
  )
  neg = - 1
  not = ! var.b
  tuple_inline = [ 1 , 2 , 3 ]
  obj_inline = { a=1 , b=2 }
  obj_colon = { a : 1, b : 2 }
  call_space = upper ( "x" )
  index_space = var.list [ 0 ]
  attr_space = var . a
  splat_space = var.list [*] . id
  ellipsis = max(var.nums ...)
  ternary_nested = var.a ? var.b ? 1 : 2 : 3
  very_long_attribute_name_that_pushes_alignment = true
  s = "short"
}
