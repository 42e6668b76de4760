package pulumi

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

func TestTerraformMappingNamesTypes(t *testing.T) {
	ctx := context.Background()
	p, root, _ := launchTPulumi(t)
	schemas := p.GetProviderSchema(ctx)
	if _, derived := schemas.ResourceTypes["tpulumi_legacy_classic_thing"]; derived {
		t.Errorf("the token-derived name is offered although the mapping names the type")
	}
	classic, ok := schemas.ResourceTypes["tpulumi_classic_thing"]
	if !ok {
		t.Fatalf("the mapping's name tpulumi_classic_thing is missing; resource types: %v", sortedKeys(schemas.ResourceTypes))
	}
	if _, ok := schemas.ResourceTypes["tpulumi_thing"]; !ok {
		t.Errorf("tpulumi_thing, mapped to its derived name, is missing")
	}

	ty := classic.Block.ImpliedType()
	attrs := map[string]cty.Value{}
	for name, attrType := range ty.AttributeTypes() {
		attrs[name] = cty.NullVal(attrType)
	}
	attrs["name"] = cty.StringVal("vintage")
	config := cty.ObjectVal(attrs)
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_classic_thing", PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics.Err())
	}
	created := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_classic_thing", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if created.Diagnostics.HasErrors() {
		t.Fatal(created.Diagnostics.Err())
	}
	if _, err := os.Stat(filepath.Join(root, "tpulumi_classicthing", created.NewState.GetAttr("id").AsString()+".json")); err != nil {
		t.Errorf("the create did not reach the mapped token's type: %v", err)
	}
}
