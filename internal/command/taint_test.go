package command

import (
	"strings"
	"testing"
)

// TestTaintMatchesTerraform taints and untaints an instance with both
// tools and compares what each prints, and the plans in between: a tainted
// object is replaced, an untainted one kept. Terraform 1.11 and OpenTofu
// word these the same (internal/command/taint.go, untaint.go).
func TestTaintMatchesTerraform(t *testing.T) {
	p := newCompatPair(t, map[string]string{"main.tf": `
resource "terraform_data" "x" {
  input = "v"
}
`}, false)
	p.mustTerraform("apply", "-no-color", "-auto-approve")
	p.mustTerrane("apply", "-no-color", "-auto-approve")
	p.both("taint", "-no-color", "terraform_data.x")
	p.both("plan", "-no-color")
	p.both("untaint", "-no-color", "terraform_data.x")
	p.both("plan", "-no-color")
	p.both("taint", "-no-color", "-allow-missing", "terraform_data.nope")
	for _, args := range [][]string{{"untaint", "-no-color", "terraform_data.x"}, {"taint", "-no-color", "terraform_data.nope"}} {
		_, tfErr, tfCode := p.runTerraform(args...)
		_, trErr, trCode := p.runTerrane(args...)
		if tfCode != 1 || trCode != 1 || unwrapped(trErr) != unwrapped(terraformWording.Replace(tfErr)) {
			t.Errorf("%s: terrane exit %d:\n%s\nterraform exit %d:\n%s", strings.Join(args, " "), trCode, trErr, tfCode, tfErr)
		}
	}
}
