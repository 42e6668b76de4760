package tpsdk

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

type sdkHarness struct {
	t      *testing.T
	ctx    context.Context
	server tfprotov5.ProviderServer
	widget tftypes.Object
	cloud  *cloud.Cloud
}

func newSDKHarness(t *testing.T) *sdkHarness {
	h := &sdkHarness{t: t, ctx: context.Background()}
	h.server = schema.NewGRPCProviderServer(New())
	schemas, err := h.server.GetProviderSchema(h.ctx, &tfprotov5.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	h.widget = schemas.ResourceSchemas[widgetType].ValueType().(tftypes.Object)
	h.cloud, _ = cloud.Open(t.TempDir())
	providerType := schemas.Provider.ValueType()
	config, _ := tfprotov5.NewDynamicValue(providerType, tftypes.NewValue(providerType, map[string]tftypes.Value{
		"root_dir": tftypes.NewValue(tftypes.String, h.cloud.Root),
	}))
	resp, err := h.server.ConfigureProvider(h.ctx, &tfprotov5.ConfigureProviderRequest{Config: &config})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
	return h
}

func (h *sdkHarness) value(attrs map[string]tftypes.Value) tftypes.Value {
	full := map[string]tftypes.Value{}
	for name, typ := range h.widget.AttributeTypes {
		full[name] = tftypes.NewValue(typ, nil)
		if v, ok := attrs[name]; ok {
			full[name] = v
		}
	}
	if _, ok := attrs["id"]; !ok {
		full["id"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	}
	return tftypes.NewValue(h.widget, full)
}

func (h *sdkHarness) dv(v tftypes.Value) *tfprotov5.DynamicValue {
	dv, err := tfprotov5.NewDynamicValue(h.widget, v)
	if err != nil {
		h.t.Fatal(err)
	}
	return &dv
}

func (h *sdkHarness) decode(dv *tfprotov5.DynamicValue) map[string]tftypes.Value {
	v, err := dv.Unmarshal(h.widget)
	if err != nil {
		h.t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	_ = v.As(&attrs)
	return attrs
}

func requireOK(t *testing.T, call string, err error, diags []*tfprotov5.Diagnostic) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", call, err)
	}
	for _, d := range diags {
		if d.Severity == tfprotov5.DiagnosticSeverityError {
			t.Fatalf("%s: %s: %s", call, d.Summary, d.Detail)
		}
	}
}

func (h *sdkHarness) create(config tftypes.Value) map[string]tftypes.Value {
	null := tftypes.NewValue(h.widget, nil)
	plan, err := h.server.PlanResourceChange(h.ctx, &tfprotov5.PlanResourceChangeRequest{
		TypeName: widgetType, PriorState: h.dv(null), ProposedNewState: h.dv(config), Config: h.dv(config),
	})
	requireOK(h.t, "PlanResourceChange", err, plan.Diagnostics)
	applied, err := h.server.ApplyResourceChange(h.ctx, &tfprotov5.ApplyResourceChangeRequest{
		TypeName: widgetType, PriorState: h.dv(null), PlannedState: plan.PlannedState, Config: h.dv(config),
		PlannedPrivate: plan.PlannedPrivate,
	})
	requireOK(h.t, "ApplyResourceChange", err, applied.Diagnostics)
	return h.decode(applied.NewState)
}

func TestWidgetCreateStoresObjectAndReadSeesDrift(t *testing.T) {
	h := newSDKHarness(t)
	tags := tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{
		tftypes.NewValue(tftypes.String, "a"), tftypes.NewValue(tftypes.String, "b"),
	})
	state := h.create(h.value(map[string]tftypes.Value{
		"name": tftypes.NewValue(tftypes.String, "w1"),
		"tags": tags,
	}))
	var id string
	_ = state["id"].As(&id)
	if id == "" {
		t.Fatal("create returned no id")
	}
	if !state["size"].Equal(tftypes.NewValue(tftypes.Number, 1)) {
		t.Errorf("size = %v, want provider default 1", state["size"])
	}
	var stored map[string]any
	if err := h.cloud.Get(widgetType, id, &stored); err != nil {
		t.Fatalf("cloud object missing: %v", err)
	}
	if stored["name"] != "w1" {
		t.Errorf("stored name = %v", stored["name"])
	}

	stored["name"] = "renamed outside"
	if err := h.cloud.Put(widgetType, id, stored); err != nil {
		t.Fatal(err)
	}
	read, err := h.server.ReadResource(h.ctx, &tfprotov5.ReadResourceRequest{
		TypeName: widgetType, CurrentState: h.dv(tftypes.NewValue(h.widget, state)),
	})
	requireOK(t, "ReadResource", err, read.Diagnostics)
	if got := h.decode(read.NewState)["name"]; !got.Equal(tftypes.NewValue(tftypes.String, "renamed outside")) {
		t.Errorf("Read did not report drift: name = %v", got)
	}
}

func TestWidgetUpgradeFromVersion0RenamesLabel(t *testing.T) {
	h := newSDKHarness(t)
	resp, err := h.server.UpgradeResourceState(h.ctx, &tfprotov5.UpgradeResourceStateRequest{
		TypeName: widgetType,
		Version:  0,
		RawState: &tfprotov5.RawState{JSON: []byte(`{"id":"abc","label":"old","size":2}`)},
	})
	requireOK(t, "UpgradeResourceState", err, resp.Diagnostics)
	upgraded := h.decode(resp.UpgradedState)
	if !upgraded["name"].Equal(tftypes.NewValue(tftypes.String, "old")) || !upgraded["id"].Equal(tftypes.NewValue(tftypes.String, "abc")) {
		t.Errorf("upgraded state = %v, want name=old id=abc", upgraded)
	}
}

func TestWidgetImportAndMaxItemsInSchema(t *testing.T) {
	h := newSDKHarness(t)
	resp, err := h.server.ImportResourceState(h.ctx, &tfprotov5.ImportResourceStateRequest{TypeName: widgetType, ID: "xyz"})
	requireOK(t, "ImportResourceState", err, resp.Diagnostics)
	if len(resp.ImportedResources) != 1 {
		t.Fatalf("imported %d resources", len(resp.ImportedResources))
	}
	schemas, _ := h.server.GetProviderSchema(h.ctx, &tfprotov5.GetProviderSchemaRequest{})
	for _, block := range schemas.ResourceSchemas[widgetType].Block.BlockTypes {
		if block.TypeName == "rule" && (block.Nesting != tfprotov5.SchemaNestedBlockNestingModeList || block.MaxItems != 3) {
			t.Errorf("rule block = %v/%d..%d, want LIST 0..3", block.Nesting, block.MinItems, block.MaxItems)
		}
		if block.TypeName == "port" && block.Nesting != tfprotov5.SchemaNestedBlockNestingModeSet {
			t.Errorf("port block nesting = %v, want SET", block.Nesting)
		}
	}
}
