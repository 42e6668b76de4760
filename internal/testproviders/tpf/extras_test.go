package tpf

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func (h *harness) callFunction(name string, arg tftypes.Value) *tfprotov6.CallFunctionResponse {
	h.t.Helper()
	dv, err := tfprotov6.NewDynamicValue(arg.Type(), arg)
	if err != nil {
		h.t.Fatal(err)
	}
	resp, err := h.server.CallFunction(h.ctx, &tfprotov6.CallFunctionRequest{Name: name, Arguments: []*tfprotov6.DynamicValue{&dv}})
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

func TestFunctions(t *testing.T) {
	h := newHarness(t)
	resp := h.callFunction("reverse", str("héllo"))
	if resp.Error != nil {
		t.Fatalf("reverse: %s", resp.Error.Text)
	}
	got, _ := resp.Result.Unmarshal(tftypes.String)
	if !got.Equal(str("olléh")) {
		t.Errorf("reverse(héllo) = %v", got)
	}

	resp = h.callFunction("sqrt", tftypes.NewValue(tftypes.Number, big.NewFloat(-4)))
	if resp.Error == nil || resp.Error.FunctionArgument == nil || *resp.Error.FunctionArgument != 0 {
		t.Fatalf("sqrt(-4) error = %+v, want an error on argument 0", resp.Error)
	}
	resp = h.callFunction("sqrt", tftypes.NewValue(tftypes.Number, big.NewFloat(16)))
	got, _ = resp.Result.Unmarshal(tftypes.Number)
	var root *big.Float
	_ = got.As(&root)
	if resp.Error != nil || root.Cmp(big.NewFloat(4)) != 0 {
		t.Errorf("sqrt(16) = %v, %v", got, resp.Error)
	}
}

func TestEphemeralTokenLifecycle(t *testing.T) {
	h := newHarness(t)
	s := h.schema.EphemeralResourceSchemas["tpf_token"]
	config := h.object(s, map[string]tftypes.Value{"name": str("db")})
	open, err := h.server.OpenEphemeralResource(h.ctx, &tfprotov6.OpenEphemeralResourceRequest{
		TypeName: "tpf_token", Config: h.dynamic(s, config),
	})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "OpenEphemeralResource", open.Diagnostics)
	result := h.decode(s, open.Result)
	leaseID := attrString(t, result, "lease_id")
	if got := attrString(t, result, "value"); got != "token-db-"+leaseID {
		t.Errorf("value = %q", got)
	}
	if !h.cloud.Exists("tpf_token", leaseID) {
		t.Fatal("open lease has no cloud object")
	}
	renew, err := h.server.RenewEphemeralResource(h.ctx, &tfprotov6.RenewEphemeralResourceRequest{TypeName: "tpf_token", Private: open.Private})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "RenewEphemeralResource", renew.Diagnostics)
	if lease := h.cloudObject("tpf_token", leaseID); lease["renewals"] == nil || lease["renewals"].(interface{ String() string }).String() != "1" {
		t.Errorf("lease after one renewal = %v", lease)
	}
	// The private data Open returned is stale once Renew returned newer.
	stale, err := h.server.CloseEphemeralResource(h.ctx, &tfprotov6.CloseEphemeralResourceRequest{TypeName: "tpf_token", Private: open.Private})
	if err != nil {
		t.Fatal(err)
	}
	if len(stale.Diagnostics) == 0 || stale.Diagnostics[0].Summary != "Lease private data is stale" {
		t.Errorf("Close with Open's private data after a renewal answered %v", stale.Diagnostics)
	}
	closed, err := h.server.CloseEphemeralResource(h.ctx, &tfprotov6.CloseEphemeralResourceRequest{TypeName: "tpf_token", Private: renew.Private})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "CloseEphemeralResource", closed.Diagnostics)
	if h.cloud.Exists("tpf_token", leaseID) {
		t.Error("Close left the lease object behind")
	}
}

func TestDataSourceReadsThing(t *testing.T) {
	h := newHarness(t)
	created := h.planApply("tpf_thing", applied{state: tftypes.NewValue(h.resourceSchema("tpf_thing").ValueType(), nil)}, map[string]tftypes.Value{
		"name": str("seen"), "description": str("by data"),
	})
	s := h.schema.DataSourceSchemas["tpf_thing"]
	read := func(id string) (*tfprotov6.ReadDataSourceResponse, tftypes.Value) {
		resp, err := h.server.ReadDataSource(h.ctx, &tfprotov6.ReadDataSourceRequest{
			TypeName: "tpf_thing", Config: h.dynamic(s, h.object(s, map[string]tftypes.Value{"id": str(id)})),
		})
		if err != nil {
			t.Fatal(err)
		}
		return resp, h.decode(s, resp.State)
	}
	resp, state := read(attrString(t, created.state, "id"))
	requireNoErrors(t, "ReadDataSource", resp.Diagnostics)
	if attrString(t, state, "name") != "seen" || attrString(t, state, "description") != "by data" {
		t.Errorf("data source state = %v", state)
	}
	resp, _ = read("missing")
	if !strings.Contains(errorText(resp.Diagnostics), "No such object") {
		t.Errorf("reading a missing object: %q", errorText(resp.Diagnostics))
	}
}

func TestBlocksValidationAndRoundTrip(t *testing.T) {
	h := newHarness(t)
	s := h.resourceSchema("tpf_blocks")
	objType := s.ValueType().(tftypes.Object)
	ruleType := objType.AttributeTypes["rule"].(tftypes.List).ElementType
	rule := tftypes.NewValue(ruleType, map[string]tftypes.Value{"action": str("allow"), "priority": tftypes.NewValue(tftypes.Number, 1)})
	noRules := tftypes.NewValue(objType.AttributeTypes["rule"], []tftypes.Value{})

	validate := func(rules tftypes.Value) []*tfprotov6.Diagnostic {
		config := h.object(s, map[string]tftypes.Value{"name": str("b"), "rule": rules})
		resp, err := h.server.ValidateResourceConfig(h.ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "tpf_blocks", Config: h.dynamic(s, config)})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Diagnostics
	}
	if errorText(validate(noRules)) == "" {
		t.Error("zero rule blocks passed validation; want at least 1")
	}
	oneRule := tftypes.NewValue(objType.AttributeTypes["rule"], []tftypes.Value{rule})
	requireNoErrors(t, "ValidateResourceConfig", validate(oneRule))

	created := h.planApply("tpf_blocks", applied{state: tftypes.NewValue(s.ValueType(), nil)}, map[string]tftypes.Value{
		"name": str("b"), "rule": oneRule,
	})
	if !field(t, created.state, "rule_count").Equal(tftypes.NewValue(tftypes.Number, 1)) {
		t.Errorf("rule_count = %v", field(t, created.state, "rule_count"))
	}
	resp, refreshed := h.read("tpf_blocks", created)
	requireNoErrors(t, "ReadResource", resp.Diagnostics)
	if !refreshed.Equal(created.state) {
		t.Errorf("read changed a block resource:\n%v\n%v", refreshed, created.state)
	}
}

func TestNestedAttributesRoundTrip(t *testing.T) {
	h := newHarness(t)
	s := h.resourceSchema("tpf_nested")
	objType := s.ValueType().(tftypes.Object)
	mapType := objType.AttributeTypes["map"].(tftypes.Map)
	ports := tftypes.NewValue(mapType, map[string]tftypes.Value{
		"web": tftypes.NewValue(mapType.ElementType, map[string]tftypes.Value{
			"port": tftypes.NewValue(tftypes.Number, 443), "protocol": tftypes.NewValue(tftypes.String, nil),
		}),
	})
	created := h.planApply("tpf_nested", applied{state: tftypes.NewValue(s.ValueType(), nil)}, map[string]tftypes.Value{"map": ports})
	var entries map[string]tftypes.Value
	_ = field(t, created.state, "map").As(&entries)
	if got := attrString(t, entries["web"], "protocol"); got != "tcp" {
		t.Errorf("nested default protocol = %q, want tcp", got)
	}
	resp, refreshed := h.read("tpf_nested", created)
	requireNoErrors(t, "ReadResource", resp.Diagnostics)
	if !refreshed.Equal(created.state) {
		t.Errorf("read changed a nested resource:\n%v\n%v", refreshed, created.state)
	}
}

func TestProtocol5VariantLeavesOutNestedAttributes(t *testing.T) {
	server := providerserver.NewProtocol5(New(Protocol5, "test")())()
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov5.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("GetProviderSchema: %s: %s", d.Summary, d.Detail)
	}
	for _, want := range []string{"tpf5_thing", "tpf5_blocks", "tpf5_versioned"} {
		if _, ok := resp.ResourceSchemas[want]; !ok {
			t.Errorf("protocol 5 variant lacks %s", want)
		}
	}
	if _, ok := resp.ResourceSchemas["tpf5_nested"]; ok {
		t.Error("protocol 5 variant offers nested attributes")
	}
	if _, ok := resp.Functions["reverse"]; !ok {
		t.Error("protocol 5 variant lacks the reverse function")
	}
}
