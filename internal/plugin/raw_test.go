package plugin

import (
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// TestMapAndGroupBlocksAndRefinedUnknowns covers what only a provider written
// directly on the protocol can show: blocks nested as MAP and GROUP, and a
// planned value whose unknown carries refinements (not null, known prefix)
// decoded from the provider's answer and kept through to apply.
func TestMapAndGroupBlocksAndRefinedUnknowns(t *testing.T) {
	p := launchTest(t, testProvider{name: "tpraw", protocol: 6})
	ctx := withTimeout(t, time.Minute)
	schemas := p.GetProviderSchema(ctx)
	noErrors(t, "GetProviderSchema", schemas.Diagnostics)
	group := schemas.ResourceTypes["tpraw_group"].Block
	if group == nil {
		t.Fatal("tpraw_group has no schema")
	}
	if got := group.BlockTypes["setting"].Nesting; got != schema.NestingMap {
		t.Errorf("setting nesting = %v, want map", got)
	}
	if got := group.BlockTypes["network"].Nesting; got != schema.NestingGroup {
		t.Errorf("network nesting = %v, want group", got)
	}

	cloud := t.TempDir()
	configured := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{
		Config: cty.ObjectVal(map[string]cty.Value{"root_dir": cty.StringVal(cloud)}),
	})
	noErrors(t, "ConfigureProvider", configured.Diagnostics)

	config := objectVal(group, map[string]cty.Value{
		"name": cty.StringVal("edge"),
		"setting": cty.MapVal(map[string]cty.Value{
			"tier": cty.ObjectVal(map[string]cty.Value{"value": cty.StringVal("gold")}),
		}),
		"network": cty.ObjectVal(map[string]cty.Value{"cidr": cty.StringVal("10.0.0.0/16"), "mode": cty.NullVal(cty.String)}),
	})
	planned := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
		TypeName:         "tpraw_group",
		PriorState:       cty.NullVal(group.ImpliedType()),
		ProposedNewState: proposedNew(group, config),
		Config:           config,
	})
	noErrors(t, "PlanResourceChange", planned.Diagnostics)
	arn := planned.PlannedState.GetAttr("arn")
	if arn.IsKnown() {
		t.Fatalf("planned arn is known: %#v", arn)
	}
	rng := arn.Range()
	if rng.CouldBeNull() || rng.StringPrefix() != "arn:tpraw:" {
		t.Errorf("planned arn lost its refinements: could be null %v, prefix %q", rng.CouldBeNull(), rng.StringPrefix())
	}
	if tier := planned.PlannedState.GetAttr("setting").Index(cty.StringVal("tier")).GetAttr("value"); !tier.RawEquals(cty.StringVal("gold")) {
		t.Errorf("map block element = %#v", tier)
	}

	applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName:       "tpraw_group",
		PriorState:     cty.NullVal(group.ImpliedType()),
		PlannedState:   planned.PlannedState,
		Config:         config,
		PlannedPrivate: planned.PlannedPrivate,
	})
	noErrors(t, "ApplyResourceChange", applied.Diagnostics)
	id := applied.NewState.GetAttr("id").AsString()
	if got := applied.NewState.GetAttr("arn"); !got.RawEquals(cty.StringVal("arn:tpraw:" + id)) {
		t.Errorf("applied arn = %#v, want the refined prefix followed by the id", got)
	}
	if cidr := applied.NewState.GetAttr("network").GetAttr("cidr"); !cidr.RawEquals(cty.StringVal("10.0.0.0/16")) {
		t.Errorf("group block after apply = %#v", applied.NewState.GetAttr("network"))
	}
}
