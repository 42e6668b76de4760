package command

import (
	"testing"
)

const applyDestroyConfig = `
resource "terraform_data" "only" {
  input = "x"
}

output "kept" {
  value = terraform_data.only.output
}
`

// TestApplyDestroyMatchesTerraform destroys with apply -destroy and by
// applying a saved destroy plan. OpenTofu, like Terraform, asks the
// destroy question by the plan's mode (backend/local opApply) but ends
// as an apply: "Apply complete! Resources: 0 added, 0 changed, 1
// destroyed." and, in the -json stream, an "apply" change summary
// followed by the (now empty) outputs; only the destroy command says
// "Destroy complete!" (views.NewApply is told which command it serves).
// With -auto-approve the progress follows the plan with no blank line.
func TestApplyDestroyMatchesTerraform(t *testing.T) {
	p := newCompatPair(t, map[string]string{"main.tf": applyDestroyConfig}, false)
	apply := func() {
		p.mustTerraform("apply", "-auto-approve", "-no-color")
		p.mustTerrane("apply", "-auto-approve", "-no-color")
	}
	p.both("apply", "-auto-approve", "-no-color")
	p.both("apply", "-destroy", "-auto-approve", "-no-color")
	apply()
	p.mustTerraform("plan", "-destroy", "-no-color", "-out=destroy.tfplan")
	p.mustTerrane("plan", "-destroy", "-no-color", "-out=destroy.tfplan")
	p.both("apply", "-no-color", "destroy.tfplan")
	apply()
	tf, tr := p.mustTerraform("apply", "-destroy", "-auto-approve", "-json"), p.mustTerrane("apply", "-destroy", "-auto-approve", "-json")
	terraneOnly, terraformOnly := multisetDifference(comparableStream(t, "apply -destroy", uuidPattern.ReplaceAllString(tr, "ID")), comparableStream(t, "apply -destroy", uuidPattern.ReplaceAllString(tf, "ID")))
	for _, line := range terraneOnly {
		t.Errorf("terrane writes a message terraform does not: %s", line)
	}
	for _, line := range terraformOnly {
		t.Errorf("terraform writes a message terrane does not: %s", line)
	}
	// The question, which -auto-approve skips: asked with no answer.
	p.mustTerrane("apply", "-auto-approve", "-no-color")
	out, _, _ := p.runTerrane("apply", "-destroy", "-no-color")
	assertContains(t, "apply -destroy", out, "Do you really want to destroy all resources?\n  Terrane will destroy all your managed infrastructure, as shown above.")
	assertContains(t, "apply -destroy", out, "Destroy cancelled.")
}
