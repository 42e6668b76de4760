package tpf

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const bigNumber = "123456789012345678901234567890.000000000000000000000000000001"

func bigNum(t *testing.T, text string) tftypes.Value {
	f, _, err := big.ParseFloat(text, 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return tftypes.NewValue(tftypes.Number, f)
}

func TestThingLifecycleStoresObjectAndTracksDrift(t *testing.T) {
	h := newHarness(t)
	dynamicValue := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("x")})
	created := h.planApply("tpf_thing", applied{state: tftypes.NewValue(h.resourceSchema("tpf_thing").ValueType(), nil)}, map[string]tftypes.Value{
		"name":        str("first"),
		"number":      bigNum(t, bigNumber),
		"dynamic":     dynamicValue,
		"password_wo": str("hunter2"),
	})
	id := attrString(t, created.state, "id")
	obj := h.cloudObject("tpf_thing", id)
	if obj == nil {
		t.Fatalf("no cloud object at %s", h.cloud.Path("tpf_thing", id))
	}
	if obj["name"] != "first" || obj["number"] != json.Number(strings.TrimRight(bigNumber, "0")) && obj["number"] != json.Number(bigNumber) {
		t.Errorf("stored object lost name or number precision: %v", obj)
	}
	if obj["password_wo"] != "hunter2" {
		t.Errorf("write-only value did not reach the cloud: %v", obj["password_wo"])
	}
	if !field(t, created.state, "password_wo").IsNull() {
		t.Error("write-only attribute kept in state")
	}
	if got := attrString(t, created.state, "size_class"); got != "small" {
		t.Errorf("size_class = %q, want provider-chosen small", got)
	}
	if !field(t, created.state, "enabled").Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Error("enabled default not applied")
	}
	if !field(t, created.state, "dynamic").Equal(dynamicValue) {
		t.Errorf("dynamic = %v", field(t, created.state, "dynamic"))
	}
	if len(created.private) == 0 {
		t.Error("create returned no private state")
	}

	updated := h.planApply("tpf_thing", created, map[string]tftypes.Value{
		"name": str("first"), "description": str("second version"),
	})
	if got := attrString(t, updated.state, "id"); got != id {
		t.Fatalf("in-place update changed id %s -> %s", id, got)
	}
	if !field(t, updated.state, "revision").Equal(tftypes.NewValue(tftypes.Number, big.NewFloat(2))) {
		t.Errorf("revision after one update = %v, want 2", field(t, updated.state, "revision"))
	}

	h.editCloudObject("tpf_thing", id, func(o map[string]any) { o["description"] = "changed outside" })
	resp, refreshed := h.read("tpf_thing", updated)
	requireNoErrors(t, "ReadResource", resp.Diagnostics)
	if got := attrString(t, refreshed, "description"); got != "changed outside" {
		t.Errorf("Read did not report drift: description = %q", got)
	}

	if err := h.cloud.Delete("tpf_thing", id); err != nil {
		t.Fatal(err)
	}
	resp, refreshed = h.read("tpf_thing", updated)
	requireNoErrors(t, "ReadResource", resp.Diagnostics)
	if !refreshed.IsNull() {
		t.Error("Read of a deleted object did not return a null state")
	}
}

func TestThingNameChangeRequiresReplace(t *testing.T) {
	h := newHarness(t)
	s := h.resourceSchema("tpf_thing")
	created := h.planApply("tpf_thing", applied{state: tftypes.NewValue(s.ValueType(), nil)}, map[string]tftypes.Value{"name": str("a")})
	resp, planned := h.plan("tpf_thing", created, h.object(s, map[string]tftypes.Value{"name": str("b")}))
	requireNoErrors(t, "PlanResourceChange", resp.Diagnostics)
	if len(resp.RequiresReplace) != 1 || resp.RequiresReplace[0].String() != tftypes.NewAttributePath().WithAttributeName("name").String() {
		t.Errorf("RequiresReplace = %v, want [name]", resp.RequiresReplace)
	}
	if field(t, planned, "revision").IsKnown() {
		t.Errorf("revision should be unknown in a plan that changes the object: %v", planned)
	}
}

func TestThingDestroyRemovesObject(t *testing.T) {
	h := newHarness(t)
	s := h.resourceSchema("tpf_thing")
	created := h.planApply("tpf_thing", applied{state: tftypes.NewValue(s.ValueType(), nil)}, map[string]tftypes.Value{"name": str("a")})
	null := tftypes.NewValue(s.ValueType(), nil)
	planResp, planned := h.plan("tpf_thing", created, null)
	requireNoErrors(t, "PlanResourceChange", planResp.Diagnostics)
	applyResp, result := h.apply("tpf_thing", created, planned, null, planResp.PlannedPrivate)
	requireNoErrors(t, "ApplyResourceChange", applyResp.Diagnostics)
	if !result.state.IsNull() {
		t.Error("destroy returned a non-null state")
	}
	if h.cloud.Exists("tpf_thing", attrString(t, created.state, "id")) {
		t.Error("destroy left the cloud object behind")
	}
}

func TestThingUpdateWithoutPrivateStateFails(t *testing.T) {
	h := newHarness(t)
	s := h.resourceSchema("tpf_thing")
	created := h.planApply("tpf_thing", applied{state: tftypes.NewValue(s.ValueType(), nil)}, map[string]tftypes.Value{"name": str("a")})
	created.private = nil
	config := h.object(s, map[string]tftypes.Value{"name": str("a"), "description": str("d")})
	planResp, planned := h.plan("tpf_thing", created, config)
	requireNoErrors(t, "PlanResourceChange", planResp.Diagnostics)
	applyResp, _ := h.apply("tpf_thing", created, planned, config, nil)
	if !strings.Contains(errorText(applyResp.Diagnostics), "Private state lost") {
		t.Errorf("update without private state: diagnostics %q, want Private state lost", errorText(applyResp.Diagnostics))
	}
}

func TestThingImportAndIdentity(t *testing.T) {
	h := newHarness(t)
	s := h.resourceSchema("tpf_thing")
	created := h.planApply("tpf_thing", applied{state: tftypes.NewValue(s.ValueType(), nil)}, map[string]tftypes.Value{"name": str("imported")})
	id := attrString(t, created.state, "id")

	importResp, err := h.server.ImportResourceState(h.ctx, &tfprotov6.ImportResourceStateRequest{TypeName: "tpf_thing", ID: id})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "ImportResourceState", importResp.Diagnostics)
	if len(importResp.ImportedResources) != 1 {
		t.Fatalf("imported %d resources, want 1", len(importResp.ImportedResources))
	}
	imported := importResp.ImportedResources[0]
	readResp, state := h.read("tpf_thing", applied{state: h.decode(s, imported.State), private: imported.Private})
	requireNoErrors(t, "ReadResource", readResp.Diagnostics)
	if got := attrString(t, state, "name"); got != "imported" {
		t.Errorf("imported object name = %q", got)
	}
	if readResp.NewIdentity == nil || readResp.NewIdentity.IdentityData == nil {
		t.Fatal("Read returned no identity")
	}
	identitySchemas, err := h.server.GetResourceIdentitySchemas(h.ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	identityType := identitySchemas.IdentitySchemas["tpf_thing"].ValueType()
	identity, err := readResp.NewIdentity.IdentityData.Unmarshal(identityType)
	if err != nil {
		t.Fatal(err)
	}
	if got := attrString(t, identity, "id"); got != id {
		t.Errorf("identity id = %q, want %q", got, id)
	}
}
