region="us-east-1"
instance_count = 3
tags = {
  Name="x"
  Owner = "y"
}
list=["a","b"]
