package engine

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/command/jsonplan"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/ui"
)

// TestNormalPlanShowsRelevantDrift checks that a normal plan reports
// drift where it may explain a planned change (an attribute another
// changing resource reads through a local and a module, and an object
// whose own configuration changes it back) and stays quiet about drift
// nothing reads.
func TestNormalPlanShowsRelevantDrift(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(map[string]string{
		"main.tf": fmt.Sprintf(tpfHeader, h.cloud) + `
resource "tpf_thing" "base" {
  name = "base"
}
resource "tpf_thing" "self" {
  name        = "self"
  description = "mine"
}
resource "tpf_thing" "other" {
  name = "other"
}
locals {
  size = tpf_thing.base.size_class
}
module "child" {
  source = "./child"
  size   = local.size
}
resource "tpf_thing" "user" {
  name        = "user"
  description = module.child.size
}`,
		"child/main.tf": `
variable "size" {
  type = string
}
output "size" {
  value = "size ${var.size}"
}`,
	})
	h.apply(h.plan(PlanOpts{}))

	h.driftCloud("base", "size_class", "large")
	h.driftCloud("self", "description", "edited by hand")
	h.driftCloud("other", "size_class", "huge")
	e := h.engine(nil)
	plan, ds := e.Plan(t.Context(), PlanOpts{})
	if ds.HasErrors() {
		t.Fatalf("plan: %s", ds.Err())
	}
	got := actions(plan)
	if got["tpf_thing.user"] != plans.Update || got["tpf_thing.self"] != plans.Update || got["tpf_thing.base"] != plans.NoOp {
		t.Fatalf("actions %v: want user and self updated, base unchanged", got)
	}

	relevant := map[string]bool{}
	for _, attr := range plan.RelevantAttributes {
		relevant[relevantAttrKey(attr.Resource, attr.Attr)] = true
	}
	for _, want := range []string{"tpf_thing.base.size_class", "tpf_thing.self"} {
		if !relevant[want] {
			t.Errorf("relevant attributes %v lack %s", relevant, want)
		}
	}
	for key := range relevant {
		if strings.HasPrefix(key, "tpf_thing.other") {
			t.Errorf("relevant attributes name %s, which no change reads", key)
		}
	}

	var out bytes.Buffer
	if rds := ui.RenderPlan(&out, plan, e.Schemas(), ui.PlanOptions{}); rds.HasErrors() {
		t.Fatalf("render: %s", rds.Err())
	}
	text := out.String()
	driftSection, _, found := strings.Cut(text, "Terrane used the selected providers")
	if !found || !strings.Contains(driftSection, "Objects have changed outside of Terrane") {
		t.Fatalf("the plan does not report drift before its changes:\n%s", text)
	}
	for _, want := range []string{`# tpf_thing.base has changed`, `~ size_class`, `"large"`, `# tpf_thing.self has changed`, `"edited by hand"`} {
		if !strings.Contains(driftSection, want) {
			t.Errorf("drift section lacks %q:\n%s", want, driftSection)
		}
	}
	if strings.Contains(driftSection, "tpf_thing.other") {
		t.Errorf("drift section reports tpf_thing.other, whose drift nothing reads:\n%s", driftSection)
	}

	shown, err := jsonplan.New(jsonplan.Input{Plan: plan, Schemas: e.Schemas()})
	if err != nil {
		t.Fatal(err)
	}
	var inJSON []string
	for _, attr := range shown.RelevantAttributes {
		inJSON = append(inJSON, attr.Resource+" "+string(attr.Attr))
	}
	if !slices.Contains(inJSON, `tpf_thing.base ["size_class"]`) {
		t.Errorf("show -json relevant_attributes %q lack tpf_thing.base's size_class", inJSON)
	}
}
