package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

func TestSDKProviderCycleAndDrift(t *testing.T) {
	h := newHarness(t)
	cfg := func(size int) {
		h.writeConfig(map[string]string{"main.tf": fmt.Sprintf(`
terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}
provider "tpsdk" {
  root_dir = %q
}
resource "tpsdk_widget" "w" {
  name = "w"
  size = %d
  rule {
    action = "allow"
  }
}`, h.cloud, size)})
	}
	cfg(2)
	h.apply(h.plan(PlanOpts{}))
	if got := actions(h.plan(PlanOpts{}))["tpsdk_widget.w"]; got != plans.NoOp {
		t.Fatalf("plan after create: %s, want no-op", got)
	}

	// Drift: delete the object behind Terrane's back.
	files, _ := filepath.Glob(filepath.Join(h.cloud, "tpsdk_widget", "*.json"))
	if len(files) != 1 {
		t.Fatalf("cloud has %v, want one widget", files)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	plan := h.plan(PlanOpts{})
	if len(plan.DriftedResources) != 1 || plan.DriftedResources[0].Action != plans.Delete {
		t.Fatalf("drift after deleting the object: %v, want one delete", plan.DriftedResources)
	}
	if got := actions(plan)["tpsdk_widget.w"]; got != plans.Create {
		t.Fatalf("plan after the object vanished: %s, want create", got)
	}
	h.apply(plan)
	cfg(3)
	plan = h.plan(PlanOpts{})
	if got := actions(plan)["tpsdk_widget.w"]; got != plans.Update {
		t.Fatalf("plan after changing size: %s, want update", got)
	}
	h.apply(plan)
	h.apply(h.plan(PlanOpts{Mode: plans.DestroyMode}))
	if got := h.instances(); len(got) != 0 {
		t.Fatalf("after destroy, state has %v", got)
	}
}
