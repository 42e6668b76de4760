package command

import "testing"

// planCompatFiles has what puts plan text in order: root resources with
// count beyond ten instances, a module's resources, and outputs.
var planCompatFiles = map[string]string{
	"main.tf": `
resource "terraform_data" "counted" {
  count = 11
  input = count.index
}

module "child" {
  source = "./child"
}

resource "terraform_data" "z_last" {
  input = { name = "z", tags = ["a", "b"] }
}

output "first" {
  value = terraform_data.counted[0].output
}
`,
	"child/main.tf": `
resource "terraform_data" "inner" {
  input = "in a module"
}
`,
}

// TestPlanTextMatchesTerraform compares whole plan texts where Terraform
// 1.11 agrees with OpenTofu: the resource order (root module first, count
// instances numerically), the planned values of terraform_data, and what
// follows the summary: the rule and the note about -out, or where the plan
// was saved.
func TestPlanTextMatchesTerraform(t *testing.T) {
	p := newCompatPair(t, planCompatFiles, false)
	p.both("plan", "-no-color")
	p.both("plan", "-no-color", "-out=saved.tfplan")
	p.mustTerraform("apply", "-no-color", "-auto-approve")
	p.mustTerrane("apply", "-no-color", "-auto-approve")
	p.both("plan", "-no-color")
}
