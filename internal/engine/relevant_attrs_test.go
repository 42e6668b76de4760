package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/command/jsonplan"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/ui"
)

// TestNormalPlanShowsRelevantDrift checks that a normal plan reports
// drift where it may explain a planned change (an attribute another
// changing resource reads through a local and a module) and, as Terraform
// does, stays quiet about drift nothing reads and about an object's drift
// that its own change already shows (its configuration changes it back).
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
	if !relevant["tpf_thing.base.size_class"] {
		t.Errorf("relevant attributes %v lack tpf_thing.base.size_class", relevant)
	}
	for key := range relevant {
		if strings.HasPrefix(key, "tpf_thing.other") || strings.HasPrefix(key, "tpf_thing.self") {
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
	for _, want := range []string{`# tpf_thing.base has changed`, `~ size_class`, `"large"`} {
		if !strings.Contains(driftSection, want) {
			t.Errorf("drift section lacks %q:\n%s", want, driftSection)
		}
	}
	for _, quiet := range []string{"tpf_thing.other", "tpf_thing.self"} {
		if strings.Contains(driftSection, quiet) {
			t.Errorf("drift section reports %s, whose drift explains no other change:\n%s", quiet, driftSection)
		}
	}
	if !strings.Contains(text, `"edited by hand" -> "mine"`) {
		t.Errorf("the plan does not show tpf_thing.self changed back:\n%s", text)
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

// TestDestroyPlanReportsNoDrift checks a destroy as Terraform shows it.
// tpsdk_widget's refresh reads back empty labels and tags where the state
// holds null, so every object differs from its record after a refresh;
// Terraform plans a destroy from the refreshed state and reports none of
// it, where listing it would bury the deletions under as many "has
// changed" blocks. Its relevant attributes still name what the deleted
// configuration reads, and an object found gone is still recorded, so the
// apply drops it from state instead of trying to delete it.
func TestDestroyPlanReportsNoDrift(t *testing.T) {
	h := newHarness(t)
	h.writeConfig(map[string]string{"main.tf": fmt.Sprintf(`
terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}
provider "tpsdk" {
  root_dir = %q
}
resource "tpsdk_widget" "base" {
  name = "base"
}
resource "tpsdk_widget" "user" {
  name   = "user"
  labels = { base = tpsdk_widget.base.id }
}
resource "tpsdk_widget" "gone" {
  name = "gone"
}`, h.cloud)})
	h.apply(h.plan(PlanOpts{}))
	removeWidget(t, h.cloud, "gone")

	e := h.engine(nil)
	plan, ds := e.Plan(t.Context(), PlanOpts{Mode: plans.DestroyMode})
	if ds.HasErrors() {
		t.Fatalf("plan: %s", ds.Err())
	}
	if got := actions(plan); got["tpsdk_widget.base"] != plans.Delete || got["tpsdk_widget.user"] != plans.Delete {
		t.Fatalf("actions %v: want base and user deleted", got)
	}
	var drifted []string
	for _, d := range plan.DriftedResources {
		drifted = append(drifted, d.Addr.String()+" "+d.Action.String())
	}
	if !slices.Equal(drifted, []string{"tpsdk_widget.gone delete"}) {
		t.Errorf("drift %q: want only tpsdk_widget.gone, found gone", drifted)
	}
	var relevant []string
	for _, attr := range plan.RelevantAttributes {
		relevant = append(relevant, relevantAttrKey(attr.Resource, attr.Attr))
	}
	if !slices.Equal(relevant, []string{"tpsdk_widget.base.id"}) {
		t.Errorf("relevant attributes %q: want what user's configuration reads, tpsdk_widget.base.id", relevant)
	}

	var out bytes.Buffer
	if rds := ui.RenderPlan(&out, plan, e.Schemas(), ui.PlanOptions{}); rds.HasErrors() {
		t.Fatalf("render: %s", rds.Err())
	}
	text := out.String()
	if strings.Contains(text, "has changed") || strings.Contains(text, "Objects have changed outside") {
		t.Errorf("the destroy plan reports drift:\n%s", text)
	}
	if !strings.Contains(text, "Plan: 0 to add, 0 to change, 2 to destroy.") {
		t.Errorf("the destroy plan does not destroy base and user:\n%s", text)
	}
	h.apply(plan)
	if left := h.instances(); len(left) != 0 {
		t.Errorf("state after the destroy holds %v", left)
	}
}

// removeWidget deletes the tpsdk_widget named name from the provider's
// cloud, as a deletion outside Terrane would.
func removeWidget(t *testing.T, cloud, name string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(cloud, "tpsdk_widget", "*.json"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if json.Unmarshal(raw, &obj) == nil && obj["name"] == name {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no tpsdk_widget named %q in the cloud", name)
}
