package command

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// planJSONCompatFiles has root variables given on the command line (one
// of an object type with an optional attribute), one left to its default,
// an output known at plan time and one known only after apply.
var planJSONCompatMain = `
variable "obj" {
  type = object({ a = string, b = optional(number, 3) })
}

variable "defaulted" {
  type    = object({ a = string, b = optional(number, 3) })
  default = { a = "d" }
}

variable "n" {
  type = number
}

resource "terraform_data" "first" {
  input = var.obj
}

resource "terraform_data" "second" {
  input = terraform_data.first.output
}

resource "terraform_data" "third" {
  input = "independent"
  DEPENDS
}

output "constant" {
  value = "hello"
}

output "later" {
  value = terraform_data.first.id
}

module "inner" {
  source = "./inner"
  in     = terraform_data.third.id
}
`

// planJSONCompatInner is a module whose output reads one of its
// resources: OpenTofu counts what a module output reads as relevant, as it
// does a root output's.
var planJSONCompatInner = `
variable "in" {}

resource "terraform_data" "inner" {
  input = var.in
}

output "x" {
  value = terraform_data.inner.output
}
`

// TestPlanJSONSectionsMatchTerraform compares the sections of show -json
// of a saved plan where Terraform 1.11 and OpenTofu agree: "variables"
// holds each variable as given, unconverted, and the defaults of the rest;
// "prior_state" is left out when there is no state but holds the outputs
// known at plan time when there are some, and after an apply holds the
// refreshed objects with the dependencies the configuration gives them,
// even where the configuration changed them since; "relevant_attributes"
// holds what changed resources and outputs read, a module's outputs
// included.
func TestPlanJSONSectionsMatchTerraform(t *testing.T) {
	main := func(depends string) string { return strings.ReplaceAll(planJSONCompatMain, "DEPENDS", depends) }
	p := newCompatPair(t, map[string]string{"main.tf": main(""), "inner/main.tf": planJSONCompatInner}, false)
	vars := []string{"-var", `obj={ a = "x" }`, "-var", "n=5"}
	plan := func() {
		p.mustTerraform(append([]string{"plan", "-no-color", "-out=json.tfplan"}, vars...)...)
		p.mustTerrane(append([]string{"plan", "-no-color", "-out=json.tfplan"}, vars...)...)
	}
	plan()
	p.compareJSONSections([]string{"show", "-json", "json.tfplan"}, "variables", "prior_state", "relevant_attributes")
	p.mustTerraform(append([]string{"apply", "-no-color", "-auto-approve"}, vars...)...)
	p.mustTerrane(append([]string{"apply", "-no-color", "-auto-approve"}, vars...)...)
	plan()
	p.compareJSONSections([]string{"show", "-json", "json.tfplan"}, "variables", "prior_state", "relevant_attributes")
	p.writeBoth("main.tf", main("depends_on = [terraform_data.second]"))
	plan()
	p.compareJSONSections([]string{"show", "-json", "json.tfplan"}, "prior_state", "relevant_attributes")
}

// compareJSONSections runs a command printing a JSON document with both
// tools and requires the named top-level sections to be equal, random ids
// masked and the engine's version left out.
func (p *compatPair) compareJSONSections(args []string, sections ...string) {
	p.t.Helper()
	decode := func(text string) map[string]any {
		var doc map[string]any
		if err := json.Unmarshal([]byte(uuidPattern.ReplaceAllString(text, "(id)")), &doc); err != nil {
			p.t.Fatalf("%v in:\n%s", err, text)
		}
		if prior, ok := doc["prior_state"].(map[string]any); ok {
			delete(prior, "terraform_version")
		}
		// OpenTofu lists relevant attributes by resource address
		// (internal/command/jsonplan/plan.go, marshalRelevantAttrs), the
		// attributes of one resource in the order a map gave them
		// (globalref.Analyzer.ContributingResourceReferences); Terraform
		// 1.11 keeps that order for all of them. Compared in one order.
		if attrs, ok := doc["relevant_attributes"].([]any); ok {
			key := func(i int) string {
				attr, _ := json.Marshal(attrs[i].(map[string]any)["attribute"])
				return attrs[i].(map[string]any)["resource"].(string) + " " + string(attr)
			}
			sort.SliceStable(attrs, func(i, j int) bool { return key(i) < key(j) })
		}
		return doc
	}
	want, got := decode(p.mustTerraform(args...)), decode(p.mustTerrane(args...))
	for _, section := range sections {
		if !reflect.DeepEqual(got[section], want[section]) {
			g, _ := json.MarshalIndent(got[section], "", "  ")
			w, _ := json.MarshalIndent(want[section], "", "  ")
			p.t.Errorf("%s differs from terraform's\nterrane:\n%s\nterraform:\n%s", section, g, w)
		}
	}
}
