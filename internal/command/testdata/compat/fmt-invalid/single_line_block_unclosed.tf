module "vpc" {source="./vpc"
}
