package pulumi

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

// TestStreamingDataSource: a function's NAME_stream data source collects
// every answer StreamInvoke sends, in order; a function the provider
// cannot stream is a diagnostic naming the data source.
func TestStreamingDataSource(t *testing.T) {
	ctx := context.Background()
	p, _, _ := launchTPulumi(t)
	for _, name := range []string{"gamma", "alpha", "beta"} {
		config := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal(name), "content": cty.StringVal(name + "!")})
		plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(config.Type()), ProposedNewState: config, Config: config})
		if resp := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(config.Type()),
			PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate}); resp.Diagnostics.HasErrors() {
			t.Fatal(resp.Diagnostics.Err())
		}
	}
	schemas := p.GetProviderSchema(ctx).DataSources
	read := func(typeName string, args map[string]cty.Value) providers.ReadDataSourceResponse {
		attrs := map[string]cty.Value{}
		for name, ty := range schemas[typeName].Block.ImpliedType().AttributeTypes() {
			attrs[name] = cty.NullVal(ty)
		}
		for name, v := range args {
			attrs[name] = v
		}
		return p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: typeName, Config: cty.ObjectVal(attrs)})
	}

	resp := read("tpulumi_list_things_stream", map[string]cty.Value{"prefix": cty.StringVal("")})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	var names []string
	for _, result := range resp.State.GetAttr("results").AsValueSlice() {
		names = append(names, result.GetAttr("name").AsString())
	}
	if got := len(names); got != 3 || names[0] != "alpha" || names[2] != "gamma" {
		t.Errorf("results names = %v, want alpha beta gamma in the order streamed", names)
	}

	resp = read("tpulumi_list_things_stream", map[string]cty.Value{"prefix": cty.StringVal("zzz")})
	if resp.Diagnostics.HasErrors() || resp.State.GetAttr("results").LengthInt() != 0 {
		t.Errorf("an empty stream should give no results: %v %#v", resp.Diagnostics.Err(), resp.State)
	}

	resp = read("tpulumi_thing_stream", map[string]cty.Value{"id": cty.StringVal("x")})
	if !resp.Diagnostics.HasErrors() || !containsText(resp.Diagnostics.Err().Error(), "tpulumi_thing_stream") {
		t.Errorf("streaming a function the provider cannot stream: %v, want a diagnostic naming tpulumi_thing_stream", resp.Diagnostics.Err())
	}
}

func containsText(s, sub string) bool { return strings.Contains(s, sub) }
