package tpf

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestVersionedUpgradeStateRenamesLabel(t *testing.T) {
	h := newHarness(t)
	resp, err := h.server.UpgradeResourceState(h.ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "tpf_versioned",
		Version:  0,
		RawState: &tfprotov6.RawState{JSON: []byte(`{"id":"v1","label":"old title","size":3}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "UpgradeResourceState", resp.Diagnostics)
	upgraded := h.decode(h.resourceSchema("tpf_versioned"), resp.UpgradedState)
	if got := attrString(t, upgraded, "title"); got != "old title" {
		t.Errorf("title = %q, want the version 0 label", got)
	}
}

func TestVersionedUpgradeIdentity(t *testing.T) {
	h := newHarness(t)
	resp, err := h.server.UpgradeResourceIdentity(h.ctx, &tfprotov6.UpgradeResourceIdentityRequest{
		TypeName:    "tpf_versioned",
		Version:     0,
		RawIdentity: &tfprotov6.RawState{JSON: []byte(`{"object_id":"v1"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "UpgradeResourceIdentity", resp.Diagnostics)
	schemas, _ := h.server.GetResourceIdentitySchemas(h.ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	identitySchema := schemas.IdentitySchemas["tpf_versioned"]
	if identitySchema.Version != 1 {
		t.Errorf("identity schema version = %d, want 1", identitySchema.Version)
	}
	identity, err := resp.UpgradedIdentity.IdentityData.Unmarshal(identitySchema.ValueType())
	if err != nil {
		t.Fatal(err)
	}
	if got := attrString(t, identity, "id"); got != "v1" {
		t.Errorf("upgraded identity id = %q", got)
	}
}

func TestMoveThingToVersioned(t *testing.T) {
	h := newHarness(t)
	thingSchema := h.resourceSchema("tpf_thing")
	created := h.planApply("tpf_thing", applied{state: tftypes.NewValue(thingSchema.ValueType(), nil)}, map[string]tftypes.Value{
		"name": str("moving"), "number": tftypes.NewValue(tftypes.Number, 7),
	})
	rawJSON, err := tftypesToJSON(created.state, thingSchema)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := h.server.MoveResourceState(h.ctx, &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: "registry.terraform.io/terrane/tpf",
		SourceTypeName:        "tpf_thing",
		SourceSchemaVersion:   0,
		SourceState:           &tfprotov6.RawState{JSON: rawJSON},
		TargetTypeName:        "tpf_versioned",
	})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "MoveResourceState", resp.Diagnostics)
	versionedSchema := h.resourceSchema("tpf_versioned")
	moved := h.decode(versionedSchema, resp.TargetState)
	if attrString(t, moved, "title") != "moving" || attrString(t, moved, "id") != attrString(t, created.state, "id") {
		t.Errorf("moved state = %v", moved)
	}
	readResp, refreshed := h.read("tpf_versioned", applied{state: moved, private: resp.TargetPrivate})
	requireNoErrors(t, "ReadResource", readResp.Diagnostics)
	if refreshed.IsNull() || attrString(t, refreshed, "title") != "moving" {
		t.Errorf("reading the moved object = %v, want it found through the thing's file", refreshed)
	}
}
