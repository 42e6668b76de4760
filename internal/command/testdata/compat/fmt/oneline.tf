resource "x" "y" { a = 1 }
resource "x" "z" {a=1}
variable "v" {default = {}}
locals { l = [] }
output "o" { value = "${local.l}" }
module "m" { source = "./m"   }
