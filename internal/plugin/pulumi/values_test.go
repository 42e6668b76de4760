package pulumi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

func TestUnsetOptionalInputsPlannedNull(t *testing.T) {
	ctx := context.Background()
	p, _, _ := launchTPulumi(t)
	config := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("bare")})
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(config.Type()), ProposedNewState: config, Config: config})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics.Err())
	}
	for _, name := range []string{"content", "tags", "password", "settings", "source"} {
		if got := plan.PlannedState.GetAttr(name); !got.IsKnown() || !got.IsNull() {
			t.Errorf("unset input %s planned as %#v, want null (Check left it unset)", name, got)
		}
	}
	if got := plan.PlannedState.GetAttr("size_class"); !got.RawEquals(cty.StringVal("small")) {
		t.Errorf("size_class planned %#v, want Check's default", got)
	}
	if got := plan.PlannedState.GetAttr("created_at"); got.IsKnown() {
		t.Errorf("created_at planned %#v, want unknown (an output only the create knows)", got)
	}
	created := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(config.Type()), PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if created.Diagnostics.HasErrors() || !created.NewState.GetAttr("content").IsNull() {
		t.Fatalf("create: content %#v, %v", created.NewState.GetAttr("content"), created.Diagnostics.Err())
	}
}

func TestAssetInputRoundTrip(t *testing.T) {
	ctx := context.Background()
	p, _, _ := launchTPulumi(t)
	source := cty.ObjectVal(map[string]cty.Value{"text": cty.StringVal("file body"), "path": cty.NullVal(cty.String), "uri": cty.NullVal(cty.String), "hash": cty.NullVal(cty.String)})
	config := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("with-asset"), "source": source})
	ty := config.Type()
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics.Err())
	}
	created := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if created.Diagnostics.HasErrors() {
		t.Fatal(created.Diagnostics.Err())
	}
	sum := sha256.Sum256([]byte("file body"))
	got := created.NewState.GetAttr("source")
	if got.GetAttr("text").AsString() != "file body" || got.GetAttr("hash").AsString() != hex.EncodeToString(sum[:]) {
		t.Fatalf("source after create = %#v, want the text with its SHA-256", got)
	}
	// The engine proposes the configuration with the prior hash kept.
	proposed := cty.ObjectVal(mergeAttrs(config, map[string]cty.Value{"source": got}))
	again := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: created.NewState, ProposedNewState: proposed, Config: config, PriorPrivate: created.Private})
	if again.Diagnostics.HasErrors() || !again.PlannedState.RawEquals(created.NewState) {
		t.Fatalf("unchanged asset planned %#v, %v", again.PlannedState, again.Diagnostics.Err())
	}
}

func mergeAttrs(obj cty.Value, set map[string]cty.Value) map[string]cty.Value {
	attrs := obj.AsValueMap()
	for name, v := range set {
		attrs[name] = v
	}
	return attrs
}

func TestIntegerBeyondFloatPrecisionRefused(t *testing.T) {
	p, _, _ := launchTPulumi(t)
	huge, _ := new(big.Float).SetString("9007199254740993") // 2^53 + 1
	config := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("n"), "ports": cty.ListVal([]cty.Value{cty.NumberVal(huge)})})
	resp := p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "tpulumi_thing", Config: config})
	if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics.Err().Error(), "9007199254740993") {
		t.Fatalf("an integer a float cannot hold was not refused by name: %v", resp.Diagnostics.Err())
	}
	exact := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("n"), "ports": cty.ListVal([]cty.Value{cty.NumberIntVal(1 << 53), cty.NumberFloatVal(0.1)})})
	if resp := p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "tpulumi_thing", Config: exact}); resp.Diagnostics.HasErrors() {
		t.Fatalf("2^53 and 0.1 should pass: %v", resp.Diagnostics.Err())
	}
}

func TestSpecialPropertiesFromWire(t *testing.T) {
	pkg := &Package{names: map[string]string{}}
	textAsset, _ := asset.FromText("hi")
	pathArchive, _ := archive.FromPath("/tmp/bundle.zip")
	customRef := resource.MakeCustomResourceReference("urn:pulumi:s::p::pkg:index:Thing::a", "thing-1", "")
	componentRef := resource.MakeComponentResourceReference("urn:pulumi:s::p::pkg:index:Group::g", "")
	tests := []struct {
		name string
		in   resource.PropertyValue
		ty   cty.Type
		want cty.Value
	}{
		{"custom reference as string is its ID", customRef, cty.String, cty.StringVal("thing-1")},
		{"component reference as string is its URN", componentRef, cty.String, cty.StringVal("urn:pulumi:s::p::pkg:index:Group::g")},
		{"reference in a dynamic value keeps both", customRef, cty.DynamicPseudoType, cty.ObjectVal(map[string]cty.Value{
			"urn": cty.StringVal("urn:pulumi:s::p::pkg:index:Thing::a"), "id": cty.StringVal("thing-1")})},
		{"text asset", resource.NewAssetProperty(textAsset), assetType, cty.ObjectVal(map[string]cty.Value{
			"text": cty.StringVal("hi"), "hash": cty.StringVal(textAsset.Hash), "path": cty.NullVal(cty.String), "uri": cty.NullVal(cty.String)})},
		{"path archive", resource.NewArchiveProperty(pathArchive), archiveType, cty.ObjectVal(map[string]cty.Value{
			"path": cty.StringVal("/tmp/bundle.zip"), "hash": cty.NullVal(cty.String), "uri": cty.NullVal(cty.String)})},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			got, err := pkg.fromProperty(test.in, test.ty)
			if err != nil || !got.RawEquals(test.want) {
				t.Errorf("got %#v, %v; want %#v", got, err, test.want)
			}
		})
	}
}
