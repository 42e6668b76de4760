package pulumi

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

// pairConfig is a tpulumi_pair configuration with the given attributes
// set and every other attribute null.
func pairConfig(t *testing.T, p *Provider, set map[string]cty.Value) cty.Value {
	return resourceConfig(t, p, "tpulumi_pair", set)
}

// resourceConfig is a configuration of the resource type typeName with
// the given attributes set and every other attribute null.
func resourceConfig(t *testing.T, p *Provider, typeName string, set map[string]cty.Value) cty.Value {
	t.Helper()
	ty := p.GetProviderSchema(context.Background()).ResourceTypes[typeName].Block.ImpliedType()
	attrs := map[string]cty.Value{}
	for name, attrType := range ty.AttributeTypes() {
		attrs[name] = cty.NullVal(attrType)
	}
	for name, v := range set {
		attrs[name] = v
	}
	return cty.ObjectVal(attrs)
}

// cloudIDs lists the IDs of the things in a tpulumi cloud directory.
func cloudIDs(t *testing.T, root string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "tpulumi_thing", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, path := range paths {
		ids = append(ids, strings.TrimSuffix(filepath.Base(path), ".json"))
	}
	return ids
}

func childIDs(children []providers.ComponentChild) []string {
	var ids []string
	for _, child := range children {
		ids = append(ids, child.ID)
	}
	return ids
}

// planAndApply plans a tpulumi_pair's config against prior and applies
// the plan.
func planAndApply(t *testing.T, p *Provider, prior cty.Value, private []byte, config cty.Value) (providers.PlanResourceChangeResponse, providers.ApplyResourceChangeResponse) {
	t.Helper()
	return planAndApplyType(t, p, "tpulumi_pair", prior, private, config)
}

func planAndApplyType(t *testing.T, p *Provider, typeName string, prior cty.Value, private []byte, config cty.Value) (providers.PlanResourceChangeResponse, providers.ApplyResourceChangeResponse) {
	t.Helper()
	ctx := context.Background()
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: typeName, PriorState: prior, PriorPrivate: private, ProposedNewState: config, Config: config})
	if plan.Diagnostics.HasErrors() {
		t.Fatalf("plan: %v", plan.Diagnostics.Err())
	}
	apply := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: typeName, PriorState: prior, PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if apply.Diagnostics.HasErrors() {
		t.Fatalf("apply: %v", apply.Diagnostics.Err())
	}
	return plan, apply
}

// TestComponentLifecycle drives tpulumi_pair through the provider
// interface: its children reach the cloud and the apply response, an
// unchanged component plans its prior object, a child it stops
// registering is deleted, and deleting the component deletes the rest.
func TestComponentLifecycle(t *testing.T) {
	ctx := context.Background()
	p, root, _ := launchTPulumi(t)
	config := pairConfig(t, p, map[string]cty.Value{"prefix": cty.StringVal("x"), "left_content": cty.StringVal("abc")})
	ty := config.Type()

	plan, created := planAndApply(t, p, cty.NullVal(ty), nil, config)
	if children := plan.PlannedState.GetAttr(childrenAttr); children.LengthInt() != 2 || children.IsWhollyKnown() {
		t.Errorf("planned children = %#v, want two with unknown IDs", children)
	}
	if got := plan.PlannedState.GetAttr("left_length"); !got.RawEquals(cty.NumberIntVal(3)) {
		t.Errorf("planned left_length = %#v, want 3 from the child's preview", got)
	}
	reported := childIDs(created.Children)
	sort.Strings(reported)
	if got, want := strings.Join(reported, " "), strings.Join(cloudIDs(t, root), " "); len(reported) != 2 || got != want {
		t.Fatalf("apply reported children %q; the cloud holds %q", got, want)
	}
	leftID := created.Children[0].ID
	if got := created.NewState.GetAttr("left_id"); !got.RawEquals(cty.StringVal(leftID)) {
		t.Errorf("left_id = %#v, want the first child's ID %q", got, leftID)
	}

	again := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_pair", PriorState: created.NewState, PriorPrivate: created.Private, ProposedNewState: config, Config: config})
	if again.Diagnostics.HasErrors() || !again.PlannedState.RawEquals(created.NewState) {
		t.Errorf("an unchanged component plans %#v (%v), want its prior object", again.PlannedState, again.Diagnostics.Err())
	}

	dropRight := pairConfig(t, p, map[string]cty.Value{"prefix": cty.StringVal("x"), "left_content": cty.StringVal("abc"), "drop_right": cty.True})
	_, dropped := planAndApply(t, p, created.NewState, created.Private, dropRight)
	if got := strings.Join(cloudIDs(t, root), " "); got != leftID || len(dropped.Children) != 1 {
		t.Errorf("after dropping the right child the cloud holds %q and the response lists %v; want the left child %s alone", got, childIDs(dropped.Children), leftID)
	}

	deleted := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_pair", PriorState: dropped.NewState, PlannedState: cty.NullVal(ty), Config: cty.NullVal(ty), PlannedPrivate: dropped.Private})
	if deleted.Diagnostics.HasErrors() || !deleted.NewState.IsNull() || deleted.Children == nil || len(deleted.Children) != 0 {
		t.Errorf("delete: state %#v, children %v, %v; want null, an empty list and no error", deleted.NewState, deleted.Children, deleted.Diagnostics.Err())
	}
	if left := cloudIDs(t, root); len(left) != 0 {
		t.Errorf("delete left %v in the cloud", left)
	}
}

// TestComponentChildCheckFailure: a child the provider's Check rejects is
// reported naming the child, the component and the attribute.
func TestComponentChildCheckFailure(t *testing.T) {
	p, root, _ := launchTPulumi(t)
	config := pairConfig(t, p, map[string]cty.Value{"prefix": cty.StringVal("x"), "right_fail": cty.StringVal("check")})
	plan := p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{TypeName: "tpulumi_pair", PriorState: cty.NullVal(config.Type()), ProposedNewState: config, Config: config})
	if !plan.Diagnostics.HasErrors() {
		t.Fatalf("plan accepted a child that fails Check: %#v", plan.PlannedState)
	}
	detail := plan.Diagnostics[0].Detail
	for _, want := range []string{`"fail"`, "-right (tpulumi_thing)", "component tpulumi_pair"} {
		if !strings.Contains(detail, want) {
			t.Errorf("diagnostic %q lacks %q", detail, want)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("a failed plan wrote to the cloud: %v", entries)
	}
}

// TestComponentChildOptions: a child's registration options decide
// beyond Diff: replaceOnChanges replaces it on a change Diff would make in
// place, ignoreChanges keeps the prior value of a property.
func TestComponentChildOptions(t *testing.T) {
	cases := []struct {
		option string
		// wantChanged: the plan changes the children.
		wantChanged bool
		wantNewID   bool
	}{
		{"replaceOnContent", true, true},
		{"ignoreContent", false, false},
		{"", true, false},
	}
	for _, tc := range cases {
		t.Run("option "+tc.option, func(t *testing.T) {
			p, _, _ := launchTPulumi(t)
			config := func(content string) cty.Value {
				return pairConfig(t, p, map[string]cty.Value{"prefix": cty.StringVal("x"), "left_content": cty.StringVal(content), "left_options": cty.StringVal(tc.option)})
			}
			_, created := planAndApply(t, p, cty.NullVal(config("a").Type()), nil, config("a"))
			plan, changed := planAndApply(t, p, created.NewState, created.Private, config("b"))
			children := func(v cty.Value) cty.Value { return v.GetAttr(childrenAttr) }
			if changedPlan := !children(plan.PlannedState).RawEquals(children(created.NewState)); changedPlan != tc.wantChanged {
				t.Errorf("changing left_content planned a change to the children: %v, want %v", changedPlan, tc.wantChanged)
			}
			if newID := changed.Children[0].ID != created.Children[0].ID; newID != tc.wantNewID {
				t.Errorf("the left child got a new ID: %v, want %v (replaced)", newID, tc.wantNewID)
			}
		})
	}
}

// TestComponentBuiltWithSDK: tpulumi_duo's Construct runs the Pulumi Go
// SDK's programming model against Terrane's resource monitor (feature
// probing, component and child registrations, registered outputs), as
// real component providers do.
func TestComponentBuiltWithSDK(t *testing.T) {
	p, root, _ := launchTPulumi(t)
	config := resourceConfig(t, p, "tpulumi_duo", map[string]cty.Value{"prefix": cty.StringVal("d"), "content": cty.StringVal("four")})
	plan, created := planAndApplyType(t, p, "tpulumi_duo", cty.NullVal(config.Type()), nil, config)
	if got := plan.PlannedState.GetAttr("first_length"); !got.RawEquals(cty.NumberIntVal(4)) {
		t.Errorf("planned first_length = %#v, want 4 from the child's preview", got)
	}
	if got := created.NewState.GetAttr("second_name"); !got.RawEquals(cty.StringVal("d-second")) {
		t.Errorf("second_name = %#v, want d-second", got)
	}
	if len(created.Children) != 2 || len(cloudIDs(t, root)) != 2 {
		t.Fatalf("children %v, cloud %v; want two of each", childIDs(created.Children), cloudIDs(t, root))
	}
	again := p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{TypeName: "tpulumi_duo", PriorState: created.NewState, PriorPrivate: created.Private, ProposedNewState: config, Config: config})
	if again.Diagnostics.HasErrors() || !again.PlannedState.RawEquals(created.NewState) {
		t.Errorf("an unchanged SDK-built component plans %#v (%v), want its prior object", again.PlannedState, again.Diagnostics.Err())
	}
}
