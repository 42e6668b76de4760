package command

import (
	"strings"
	"testing"
)

const outputRefreshConfig = `
variable "v" {
  default = "hello"
}

resource "terraform_data" "a" {
  input = { x = var.v, n = [1, 2] }
}

output "o" {
  value = terraform_data.a.output
}

output "s" {
  value     = "secret"
  sensitive = true
}

output "n" {
  value = 42
}
`

// TestOutputAndRefreshMatchTerraform compares output in each of its forms
// and refresh, where Terraform 1.11 agrees with OpenTofu. refresh shows
// its progress and then only the outputs (OpenTofu's views.RefreshHuman),
// neither a plan nor "Apply complete!". output -json lists each output's
// "sensitive", "type" and "value" in that order (views.OutputJSON).
func TestOutputAndRefreshMatchTerraform(t *testing.T) {
	p := newCompatPair(t, map[string]string{"main.tf": outputRefreshConfig}, false)
	p.mustTerraform("apply", "-auto-approve", "-no-color")
	p.mustTerrane("apply", "-auto-approve", "-no-color")
	p.both("output", "-no-color")
	p.both("output", "o")
	p.both("output", "-raw", "n")
	p.both("output", "-json", "o")
	p.both("refresh", "-no-color")
	p.both("state", "show", "-no-color", "terraform_data.a")

	got, want := p.mustTerrane("output", "-json"), p.mustTerraform("output", "-json")
	if !strings.Contains(got, "{\n  \"n\": {\n    \"sensitive\": false,\n    \"type\": \"number\",\n    \"value\": 42\n  },") {
		t.Errorf("output -json does not list the fields in OpenTofu's order:\n%s", got)
	}
	if got != want {
		t.Errorf("output -json differs from terraform's\n%s", lineDiff(got, want))
	}
}
