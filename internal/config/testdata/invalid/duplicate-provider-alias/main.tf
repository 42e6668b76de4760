provider "aws" { alias = "w" }
provider "aws" { alias = "w" }
