package tpraw

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

func configured(t *testing.T) (tfprotov6.ProviderServer, *cloud.Cloud) {
	t.Helper()
	c, err := cloud.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	server := New()
	config, _ := encode(cty.ObjectVal(map[string]cty.Value{"root_dir": cty.StringVal(c.Root)}), providerCtyType)
	resp, err := server.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: config})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
	return server, c
}

func groupConfig() cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id":   cty.NullVal(cty.String),
		"name": cty.StringVal("g"),
		"arn":  cty.NullVal(cty.String),
		"setting": cty.MapVal(map[string]cty.Value{
			"color": cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal("blue")}),
		}),
		"network": cty.ObjectVal(map[string]cty.Value{"cidr": cty.StringVal("10.0.0.0/8"), "mode": cty.NullVal(cty.String)}),
	})
}

func TestSchemaHasMapAndGroupBlocks(t *testing.T) {
	resp, _ := New().GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	modes := map[string]tfprotov6.SchemaNestedBlockNestingMode{}
	for _, block := range resp.ResourceSchemas[groupType].Block.BlockTypes {
		modes[block.TypeName] = block.Nesting
	}
	if modes["setting"] != tfprotov6.SchemaNestedBlockNestingModeMap || modes["network"] != tfprotov6.SchemaNestedBlockNestingModeGroup {
		t.Errorf("block nesting modes = %v, want setting MAP and network GROUP", modes)
	}
}

func TestPlanRefinesUnknownArnAndApplyStoresGroup(t *testing.T) {
	server, c := configured(t)
	ctx := context.Background()
	null, _ := encode(cty.NullVal(groupCtyType), groupCtyType)
	config, _ := encode(groupConfig(), groupCtyType)
	plan, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: groupType, PriorState: null, ProposedNewState: config, Config: config,
	})
	if err != nil || len(plan.Diagnostics) > 0 {
		t.Fatalf("PlanResourceChange: %v %v", err, plan.Diagnostics)
	}
	planned, err := decode(plan.PlannedState, groupCtyType)
	if err != nil {
		t.Fatal(err)
	}
	arn := planned.GetAttr("arn")
	if arn.IsKnown() {
		t.Fatal("planned arn is known; want a refined unknown")
	}
	if arn.Range().CouldBeNull() || arn.Range().StringPrefix() != arnPrefix {
		t.Errorf("planned arn refinements: could be null %v, prefix %q; want not null with prefix %q",
			arn.Range().CouldBeNull(), arn.Range().StringPrefix(), arnPrefix)
	}

	applied, err := server.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: groupType, PriorState: null, PlannedState: plan.PlannedState, Config: config,
	})
	if err != nil || len(applied.Diagnostics) > 0 {
		t.Fatalf("ApplyResourceChange: %v %v", err, applied.Diagnostics)
	}
	state, _ := decode(applied.NewState, groupCtyType)
	id := state.GetAttr("id").AsString()
	if got := state.GetAttr("arn").AsString(); got != arnPrefix+id {
		t.Errorf("arn = %q, want %q", got, arnPrefix+id)
	}
	if !c.Exists(groupType, id) {
		t.Fatal("apply wrote no cloud object")
	}
	read, err := server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: groupType, CurrentState: applied.NewState})
	if err != nil || len(read.Diagnostics) > 0 {
		t.Fatalf("ReadResource: %v %v", err, read.Diagnostics)
	}
	refreshed, _ := decode(read.NewState, groupCtyType)
	if !refreshed.RawEquals(state) {
		t.Errorf("read = %#v, want %#v", refreshed, state)
	}
}
