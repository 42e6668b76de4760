package pulumi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// launchSubpackage starts tpulumi parameterized by params and configures
// it with a fresh cloud directory.
func launchSubpackage(t *testing.T, params *Parameters) (*Provider, string) {
	t.Helper()
	mirror := providertest.Build(t)
	p, err := Launch(context.Background(), Config{Path: mirror.PulumiExecutable("tpulumi"), Parameters: params, Logger: hclog.NewNullLogger()})
	if err != nil {
		t.Fatalf("launching tpulumi with %+v: %v", params, err)
	}
	t.Cleanup(func() { p.Close() })
	root := t.TempDir()
	config := cty.ObjectVal(map[string]cty.Value{"root_dir": cty.StringVal(root), "fail_configure": cty.NullVal(cty.String)})
	if resp := p.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{Config: config}); resp.Diagnostics.HasErrors() {
		t.Fatalf("Configure: %v", resp.Diagnostics.Err())
	}
	return p, root
}

func TestParameterizedSubpackage(t *testing.T) {
	ctx := context.Background()
	p, root := launchSubpackage(t, &Parameters{Args: []string{"widgets"}})
	schemas := p.GetProviderSchema(ctx)
	if schemas.Diagnostics.HasErrors() {
		t.Fatal(schemas.Diagnostics.Err())
	}
	if _, ok := schemas.ResourceTypes["widgets_gadget"]; !ok || len(schemas.ResourceTypes) != 1 {
		t.Fatalf("the sub-package's resource types are %v, want only widgets_gadget", sortedKeys(schemas.ResourceTypes))
	}
	if base, name, version := p.Subpackage(); base != "tpulumi" || name != "widgets" || version != "1.0.0" {
		t.Errorf("Subpackage() = %q %q %q", base, name, version)
	}
	recorded, err := p.Parameterization(ctx)
	if err != nil || recorded == nil || recorded.Name != "widgets" || string(recorded.Value) != "widgets" {
		t.Fatalf("Parameterization() = %+v, %v; want widgets with the schema's parameter", recorded, err)
	}

	// The sub-package's resource works like any other.
	ty := schemas.ResourceTypes["widgets_gadget"].Block.ImpliedType()
	attrs := map[string]cty.Value{}
	for name, attrType := range ty.AttributeTypes() {
		attrs[name] = cty.NullVal(attrType)
	}
	attrs["name"] = cty.StringVal("sprocket")
	config := cty.ObjectVal(attrs)
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "widgets_gadget", PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics.Err())
	}
	created := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "widgets_gadget", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if created.Diagnostics.HasErrors() {
		t.Fatal(created.Diagnostics.Err())
	}
	if _, err := os.Stat(filepath.Join(root, "widgets_gadget", created.NewState.GetAttr("id").AsString()+".json")); err != nil {
		t.Errorf("the gadget is not stored under widgets_gadget: %v", err)
	}

	// A later run replays the recorded value and gets the same schema.
	replayed, _ := launchSubpackage(t, &Parameters{Value: recorded})
	if _, ok := replayed.GetProviderSchema(ctx).ResourceTypes["widgets_gadget"]; !ok {
		t.Errorf("replaying the recorded parameterization did not yield widgets_gadget")
	}
}

func TestParameterizeRejected(t *testing.T) {
	mirror := providertest.Build(t)
	_, err := Launch(context.Background(), Config{Path: mirror.PulumiExecutable("tpulumi"), Parameters: &Parameters{Args: []string{"Not Valid"}}, Logger: hclog.NewNullLogger()})
	if err == nil || !strings.Contains(err.Error(), "Parameterize") || !strings.Contains(err.Error(), `"Not Valid"`) {
		t.Fatalf("a rejected parameter should fail the launch naming the call and the parameters, got %v", err)
	}
}
