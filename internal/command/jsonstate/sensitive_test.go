package jsonstate

import (
	"encoding/json"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
)

var exampleProvider = addrs.NewDefaultProvider("example")

// exampleSchemas has one resource type with a schema-sensitive attribute
// and a list of nested blocks holding another.
func exampleSchemas() *providers.Schemas {
	return &providers.Schemas{Providers: map[addrs.Provider]providers.GetProviderSchemaResponse{
		exampleProvider: {ResourceTypes: map[string]schema.Schema{
			"example_thing": {Version: 2, Block: &schema.Block{
				Attributes: map[string]*schema.Attribute{
					"id":       {Type: cty.String, Computed: true},
					"password": {Type: cty.String, Optional: true, Sensitive: true},
					"tags":     {Type: cty.Map(cty.String), Optional: true},
				},
				BlockTypes: map[string]*schema.NestedBlock{
					"rule": {Nesting: schema.NestingList, Block: schema.Block{Attributes: map[string]*schema.Attribute{
						"name":  {Type: cty.String, Optional: true},
						"token": {Type: cty.String, Optional: true, Sensitive: true},
					}}},
				},
			}},
		}},
	}}
}

func exampleState(t *testing.T, value cty.Value, schemaVersion uint64) *states.State {
	t.Helper()
	state := states.NewState()
	addr := addrs.AbsResourceInstance{Resource: addrs.ResourceInstance{
		Resource: addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "example_thing", Name: "x"},
		Key:      addrs.StringKey("k"),
	}}
	provider := addrs.AbsProviderConfig{Provider: exampleProvider}
	valueType := exampleSchemas().Providers[exampleProvider].ResourceTypes["example_thing"].Block.ImpliedType()
	obj := &states.ResourceInstanceObject{Value: value, Status: states.ObjectReady}
	src, err := obj.Encode(valueType, schemaVersion)
	if err != nil {
		t.Fatal(err)
	}
	state.SetResourceInstanceCurrent(addr, src, provider)
	return state
}

func exampleValue() cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id":       cty.StringVal("i-1"),
		"password": cty.StringVal("swordfish"),
		"tags":     cty.MapVal(map[string]cty.Value{"env": cty.StringVal("prod"), "owner": cty.StringVal("ops").Mark(marks.Sensitive)}),
		"rule": cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a"), "token": cty.StringVal("t1")}),
			cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("b"), "token": cty.NullVal(cty.String)}),
		}),
	})
}

func TestSensitiveValuesMirrorSchemaAndStoredMarks(t *testing.T) {
	state := exampleState(t, exampleValue(), 2)
	raw, err := Marshal(state, exampleSchemas(), "0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	var parsed tfjson.State
	if err := json.Unmarshal(raw, &parsed); err != nil {
		t.Fatal(err)
	}
	resources := parsed.Values.RootModule.Resources
	if len(resources) != 1 {
		t.Fatalf("%d resources, want 1:\n%s", len(resources), raw)
	}
	res := resources[0]
	if res.Address != `example_thing.x["k"]` || res.Index != "k" || res.ProviderName != "registry.opentofu.org/hashicorp/example" || res.SchemaVersion != 2 {
		t.Errorf("resource header %+v", res)
	}
	// Values stay in full: the mirror says what to hide.
	if res.AttributeValues["password"] != "swordfish" {
		t.Errorf("password value %v, want the stored value", res.AttributeValues["password"])
	}
	var mirror any
	if err := json.Unmarshal(res.SensitiveValues, &mirror); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		// sensitive by schema only
		"password": true,
		// sensitive by the stored marks only
		"tags": map[string]any{"owner": true},
		// positions kept; a null sensitive attribute is still sensitive
		"rule": []any{map[string]any{"token": true}, map[string]any{"token": true}},
	}
	if got, _ := json.Marshal(mirror); string(got) != mustJSON(t, want) {
		t.Errorf("sensitive_values = %s\nwant %s", got, mustJSON(t, want))
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func TestErrorsNameTheInstanceAndSayWhatToDo(t *testing.T) {
	tests := []struct {
		name     string
		schemas  *providers.Schemas
		version  uint64
		wantText []string
	}{
		{"no schema", &providers.Schemas{}, 2, []string{"example_thing.x", "no schema", "terrane init"}},
		{"old schema version", exampleSchemas(), 1, []string{`example_thing.x["k"]`, "schema version 1", "version 2", "terrane refresh"}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			_, err := Marshal(exampleState(t, exampleValue(), test.version), test.schemas, "0.1.0")
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range test.wantText {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

func TestOmitUnknownsAndSensitiveAsBool(t *testing.T) {
	tests := []struct {
		name          string
		val           cty.Value
		wantKnown     string
		wantSensitive string
	}{
		{"unknown attribute left out", cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.UnknownVal(cty.String)}), `{"a":"x"}`, `{}`},
		{"unknown list element kept as null", cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.UnknownVal(cty.String)}), `["x",null]`, `[false,false]`},
		{"unknown collection", cty.ObjectVal(map[string]cty.Value{"l": cty.UnknownVal(cty.List(cty.String))}), `{}`, `{"l":[]}`},
		// cty carries a set element's marks on the whole set.
		{"sensitive set element", cty.SetVal([]cty.Value{cty.StringVal("x").Mark(marks.Sensitive)}), `["x"]`, `true`},
		{"sensitive list element", cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y").Mark(marks.Sensitive)}), `["x","y"]`, `[false,true]`},
		{"wholly sensitive", cty.StringVal("x").Mark(marks.Sensitive), `"x"`, `true`},
		{"null", cty.NullVal(cty.Map(cty.String)), `null`, `false`},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			unmarked, _ := test.val.UnmarkDeep()
			known, err := MarshalValue(OmitUnknowns(unmarked))
			if err != nil {
				t.Fatal(err)
			}
			if string(known) != test.wantKnown {
				t.Errorf("known parts %s, want %s", known, test.wantKnown)
			}
			sensitive, err := MarshalSensitiveAsBool(test.val)
			if err != nil {
				t.Fatal(err)
			}
			if string(sensitive) != test.wantSensitive {
				t.Errorf("sensitive mirror %s, want %s", sensitive, test.wantSensitive)
			}
		})
	}
}
