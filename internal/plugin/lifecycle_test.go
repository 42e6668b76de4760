package plugin

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

// TestResourceLifecycle drives a resource through every managed-resource
// call over the real provider process, on both protocol versions.
func TestResourceLifecycle(t *testing.T) {
	for _, tp := range allTestProviders {
		t.Run(tp.name, func(t *testing.T) {
			ctx := context.Background()
			p := launchTest(t, tp)
			schemas := p.GetProviderSchema(ctx)
			noErrors(t, "GetProviderSchema", schemas.Diagnostics)
			typeName := tp.resource
			thing, ok := schemas.ResourceTypes[typeName]
			if !ok {
				t.Fatalf("schema lacks %s; has %d resource types", typeName, len(schemas.ResourceTypes))
			}

			providerConfig := objectVal(schemas.Provider.Block, map[string]cty.Value{"root_dir": cty.StringVal(t.TempDir())})
			validated := p.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: providerConfig})
			noErrors(t, "ValidateProviderConfig", validated.Diagnostics)
			if !validated.PreparedConfig.RawEquals(providerConfig) {
				t.Errorf("prepared config = %#v, want the config unchanged", validated.PreparedConfig)
			}
			noErrors(t, "ConfigureProvider", p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{
				TerraformVersion: "1.9.0", Config: providerConfig,
				ClientCapabilities: providers.ClientCapabilities{DeferralAllowed: true, WriteOnlyAttributesAllowed: true},
			}).Diagnostics)

			attrs := map[string]cty.Value{"name": cty.StringVal("alpha")}
			if tp.failSwitches { // the framework's tpf*_thing
				attrs["tags"] = cty.MapVal(map[string]cty.Value{"env": cty.StringVal("test")})
				attrs["number"] = cty.MustParseNumberVal("3.14159265358979323846264338327950288")
			}
			config := objectVal(thing.Block, attrs)
			noErrors(t, "ValidateResourceConfig", p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{
				TypeName: typeName, Config: config,
				ClientCapabilities: providers.ClientCapabilities{WriteOnlyAttributesAllowed: true},
			}).Diagnostics)

			null := cty.NullVal(thing.Block.ImpliedType())
			plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: typeName, PriorState: null, ProposedNewState: proposedNew(thing.Block, config), Config: config,
			})
			noErrors(t, "PlanResourceChange", plan.Diagnostics)
			if id := plan.PlannedState.GetAttr("id"); id.IsKnown() {
				t.Errorf("planned id = %#v, want unknown until apply", id)
			}
			if tp.failSwitches {
				if got := plan.PlannedState.GetAttr("number"); !got.RawEquals(config.GetAttr("number")) {
					t.Errorf("planned number = %#v: precision lost crossing the wire", got)
				}
			}

			applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
				TypeName: typeName, PriorState: null, PlannedState: plan.PlannedState, Config: config,
				PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
			})
			noErrors(t, "ApplyResourceChange", applied.Diagnostics)
			state := applied.NewState
			if !state.IsWhollyKnown() || state.GetAttr("id").IsNull() {
				t.Fatalf("applied state is incomplete: %#v", state)
			}

			read := p.ReadResource(ctx, providers.ReadResourceRequest{
				TypeName: typeName, PriorState: state, Private: applied.Private, CurrentIdentity: applied.NewIdentity,
			})
			noErrors(t, "ReadResource", read.Diagnostics)
			if !read.NewState.GetAttr("name").RawEquals(cty.StringVal("alpha")) {
				t.Errorf("read name = %#v", read.NewState.GetAttr("name"))
			}

			imported := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: typeName, ID: state.GetAttr("id").AsString()})
			noErrors(t, "ImportResourceState", imported.Diagnostics)
			if len(imported.ImportedResources) != 1 || imported.ImportedResources[0].TypeName != typeName {
				t.Fatalf("imported %+v, want one %s", imported.ImportedResources, typeName)
			}
			if got := imported.ImportedResources[0].State.GetAttr("id"); !got.RawEquals(state.GetAttr("id")) {
				t.Errorf("imported id = %#v, want %#v", got, state.GetAttr("id"))
			}

			destroyPlan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: typeName, PriorState: state, ProposedNewState: null, Config: null, PriorPrivate: read.Private,
			})
			noErrors(t, "PlanResourceChange (destroy)", destroyPlan.Diagnostics)
			destroyed := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
				TypeName: typeName, PriorState: state, PlannedState: null, Config: null, PlannedPrivate: read.Private,
			})
			noErrors(t, "ApplyResourceChange (destroy)", destroyed.Diagnostics)
			if !destroyed.NewState.IsNull() {
				t.Errorf("state after destroy = %#v, want null", destroyed.NewState)
			}
			gone := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: typeName, PriorState: state})
			noErrors(t, "ReadResource after destroy", gone.Diagnostics)
			if !gone.NewState.IsNull() {
				t.Errorf("a destroyed object still reads as %#v", gone.NewState)
			}

			if err := p.StopProvider(ctx); err != nil {
				t.Errorf("StopProvider: %v", err)
			}
			if err := p.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if !p.WaitExited(0) {
				t.Errorf("provider process still running after Close")
			}
			if err := p.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
		})
	}
}
