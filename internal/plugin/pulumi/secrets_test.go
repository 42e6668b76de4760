package pulumi

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

func hasPath(paths []cty.Path, want cty.Path) bool {
	for _, path := range paths {
		if path.Equals(want) {
			return true
		}
	}
	return false
}

// TestRuntimeSecretsAndOutputValues: apiKey, returned as a secret output
// value though the schema does not declare it secret, is reported in
// SensitivePaths by plan, apply and read; an unknown input reaches a
// provider that accepts outputs as an output value.
func TestRuntimeSecretsAndOutputValues(t *testing.T) {
	ctx := context.Background()
	p, _, logs := launchTPulumi(t)
	apiKey := cty.GetAttrPath("api_key")

	unknownContent := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("alpha"), "content": cty.UnknownVal(cty.String)})
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(unknownContent.Type()), ProposedNewState: unknownContent, Config: unknownContent})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics.Err())
	}
	if !strings.Contains(logs.String(), "check received output values for content") {
		t.Errorf("the unknown content did not reach the provider as an output value; log:\n%s", logs)
	}
	if !hasPath(plan.SensitivePaths, apiKey) || plan.PlannedState.GetAttr("api_key").AsString() != "key-alpha" {
		t.Errorf("plan: api_key %#v with sensitive paths %#v, want key-alpha reported sensitive", plan.PlannedState.GetAttr("api_key"), plan.SensitivePaths)
	}

	config := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("alpha"), "content": cty.StringVal("hi")})
	plan = p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(config.Type()), ProposedNewState: config, Config: config})
	applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(config.Type()),
		PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if applied.Diagnostics.HasErrors() {
		t.Fatal(applied.Diagnostics.Err())
	}
	if !hasPath(applied.SensitivePaths, apiKey) {
		t.Errorf("apply sensitive paths %#v lack api_key", applied.SensitivePaths)
	}
	read := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "tpulumi_thing", PriorState: applied.NewState, Private: applied.Private})
	if read.Diagnostics.HasErrors() || !hasPath(read.SensitivePaths, apiKey) {
		t.Errorf("read: %v, sensitive paths %#v lack api_key", read.Diagnostics.Err(), read.SensitivePaths)
	}
	priv, err := decodePrivate(read.Private, "tpulumi:index:Thing")
	if err != nil || !hasPath(priv.Secrets, apiKey) {
		t.Errorf("the private data keeps secrets %#v (%v), want api_key to send back as a secret", priv.Secrets, err)
	}
}

// TestSecretPathsRoundTrip: the private data's secret paths survive JSON
// with attribute, list index and map key steps.
func TestSecretPathsRoundTrip(t *testing.T) {
	paths := secretPathList{
		cty.GetAttrPath("api_key"),
		cty.GetAttrPath("ports").IndexInt(2),
		cty.GetAttrPath("tags").IndexString("team").GetAttr("x"),
	}
	raw, err := json.Marshal(paths)
	if err != nil {
		t.Fatal(err)
	}
	var back secretPathList
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != len(paths) {
		t.Fatalf("%s decoded to %d paths", raw, len(back))
	}
	for i := range paths {
		if !back[i].Equals(paths[i]) {
			t.Errorf("path %d: %#v became %#v through %s", i, paths[i], back[i], raw)
		}
	}
}

// TestSensitiveConfigGoesAsSecret: a configuration value the engine marks
// sensitive (ConfigSensitivePaths) reaches the provider as a secret.
func TestSensitiveConfigGoesAsSecret(t *testing.T) {
	ctx := context.Background()
	p, _, logs := launchTPulumi(t)
	config := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("alpha"), "content": cty.StringVal("classified")})
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(config.Type()),
		ProposedNewState: config, Config: config, ConfigSensitivePaths: []cty.Path{cty.GetAttrPath("content")}})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics.Err())
	}
	if !strings.Contains(logs.String(), "check received secrets for content") {
		t.Errorf("the sensitive content did not reach Check as a secret; log:\n%s", logs)
	}
	if !hasPath(plan.SensitivePaths, cty.GetAttrPath("content")) {
		t.Errorf("the provider echoed content as a secret, so the plan should report it sensitive: %#v", plan.SensitivePaths)
	}
}

// TestSensitiveDataSourceArgumentGoesAsSecret: a data source argument the
// engine marks sensitive reaches Invoke as a secret.
func TestSensitiveDataSourceArgumentGoesAsSecret(t *testing.T) {
	ctx := context.Background()
	p, _, logs := launchTPulumi(t)
	ty := p.GetProviderSchema(ctx).DataSources["tpulumi_thing"].Block.ImpliedType()
	attrs := map[string]cty.Value{}
	for name, attrType := range ty.AttributeTypes() {
		attrs[name] = cty.NullVal(attrType)
	}
	attrs["id"] = cty.StringVal("no-such-thing")
	resp := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: "tpulumi_thing", Config: cty.ObjectVal(attrs), ConfigSensitivePaths: []cty.Path{cty.GetAttrPath("id")}})
	if !strings.Contains(logs.String(), "invoke received secrets for id") {
		t.Errorf("the sensitive id did not reach Invoke as a secret; log:\n%s", logs)
	}
	// The provider looked the thing up by the secret's value.
	if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics.Err().Error(), `no thing "no-such-thing"`) {
		t.Errorf("read with a secret id: %v, want the provider's not-found answer for it", resp.Diagnostics.Err())
	}
}
