package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
)

// stateObjectOption adjusts an object before it is stored.
type stateObjectOption func(*states.ResourceInstanceObject)

func tainted(obj *states.ResourceInstanceObject) { obj.Status = states.ObjectTainted }

// storeObject encodes value with the schema of its resource type and
// stores it at addr, as the current object or, with a deposed key, as a
// deposed one.
func storeObject(t *testing.T, state *states.State, addr string, deposed addrs.DeposedKey, value cty.Value, options ...stateObjectOption) {
	t.Helper()
	parsed := instance(t, addr)
	block := thingSchema
	if parsed.Resource.Resource.Mode == addrs.DataResourceMode {
		block = lookupSchema
	}
	obj := &states.ResourceInstanceObject{Value: value}
	for _, option := range options {
		option(obj)
	}
	src, err := obj.Encode(block.ImpliedType(), 0)
	if err != nil {
		t.Fatal(err)
	}
	provider := addrs.AbsProviderConfig{Provider: testProvider}
	if deposed != addrs.NotDeposed {
		state.SetResourceInstanceDeposed(parsed, deposed, src, provider)
		return
	}
	state.SetResourceInstanceCurrent(parsed, src, provider)
}

func lookup(id, name, result string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": str(id), "name": str(name), "result": str(result)})
}

// everythingState has objects of every kind in several modules, with
// nested blocks of every nesting mode and sensitive values the schema
// declares, the state records, or both, and outputs of several types.
func everythingState(t *testing.T) *states.State {
	state := states.NewState()
	storeObject(t, state, "tpf_thing.web", addrs.NotDeposed, fullThing(t, str("i-1")))
	storeObject(t, state, "tpf_thing.web", "00000001", fullThing(t, str("i-0")))
	storeObject(t, state, "tpf_thing.broken", addrs.NotDeposed, thing(t, map[string]cty.Value{"id": str("i-2"), "name": str("broken")}), tainted)
	storeObject(t, state, "data.tpf_lookup.ami", addrs.NotDeposed, lookup("ami-1", "ubuntu", "ok"))
	storeObject(t, state, `tpf_thing.each["b"]`, addrs.NotDeposed, thing(t, map[string]cty.Value{"id": str("i-b"), "name": str("b"), "policy": str("{\"Version\":\"2012-10-17\",\"Statement\":[]}")}))
	storeObject(t, state, `tpf_thing.each["a"]`, addrs.NotDeposed, thing(t, map[string]cty.Value{
		"id": str("i-a"), "name": secret(str("recorded as sensitive")),
		"network": secret(tuple(obj(map[string]cty.Value{"cidr": str("10.1.0.0/16"), "label": str("hidden")}))),
	}))
	storeObject(t, state, "module.app[1].tpf_thing.web", addrs.NotDeposed, thing(t, map[string]cty.Value{"id": str("i-m1"), "name": str("in module"), "size": num(1)}))
	storeObject(t, state, "module.app[0].module.db.tpf_thing.web", addrs.NotDeposed, thing(t, map[string]cty.Value{"id": str("i-db"), "name": str("db"), "ports": tuple()}))
	storeObject(t, state, "module.app-extra.tpf_thing.web", addrs.NotDeposed, thing(t, map[string]cty.Value{"id": str("i-x"), "name": str("extra")}))
	state.Outputs["address"] = &states.OutputValue{Value: str("10.0.0.1")}
	state.Outputs["password"] = &states.OutputValue{Value: str("hunter2"), Sensitive: true}
	state.Outputs["tags"] = &states.OutputValue{Value: cty.MapVal(map[string]cty.Value{"env": str("prod"), "cost centre": str("42")})}
	state.Outputs["object"] = &states.OutputValue{Value: obj(map[string]cty.Value{"list": tuple(num(1), cty.True), "text": str("two\nlines")})}
	state.Outputs["nothing"] = &states.OutputValue{Value: cty.NullVal(cty.String)}
	state.Outputs["from_sensitive"] = &states.OutputValue{Value: secret(str("marked, not declared"))}
	return state
}

// checkStateGolden compares a rendering with testdata/state/NAME.golden,
// or rewrites the file when the test runs with -update.
func checkStateGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "state", name+".golden")
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s (run the test with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("rendering differs from %s\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func renderState(t *testing.T, state *states.State, opts StateOptions) (string, diags.Diagnostics) {
	t.Helper()
	var out bytes.Buffer
	ds := RenderState(&out, state, testSchemas(), opts)
	return out.String(), ds
}

func TestRenderStateGolden(t *testing.T) {
	onlyOutputs := states.NewState()
	onlyOutputs.Outputs["greeting"] = &states.OutputValue{Value: str("hello")}
	cases := map[string]*states.State{
		"everything":   everythingState(t),
		"empty":        states.NewState(),
		"nil":          nil,
		"only_outputs": onlyOutputs,
	}
	for name, state := range cases {
		t.Run(name, func(t *testing.T) {
			got, ds := renderState(t, state, StateOptions{})
			if len(ds) > 0 {
				t.Fatalf("RenderState reported: %v", ds)
			}
			if name == "nil" {
				name = "empty"
			}
			checkStateGolden(t, name, got)
		})
	}
}

// TestRenderStateHidesSensitiveValues checks that no secret of the
// everything state reaches the rendering, whichever way it is sensitive.
func TestRenderStateHidesSensitiveValues(t *testing.T) {
	got, _ := renderState(t, everythingState(t), StateOptions{})
	for _, secretText := range []string{"hunter2", "s3", "recorded as sensitive", "10.1.0.0/16", "marked, not declared"} {
		if strings.Contains(got, secretText) {
			t.Errorf("the rendering shows the sensitive value %q", secretText)
		}
	}
}

// TestRenderStateReportsObjectsItCannotShow checks that an object of a
// resource type without a schema is left out with a warning naming it,
// and the rest is still shown.
func TestRenderStateReportsObjectsItCannotShow(t *testing.T) {
	state := states.NewState()
	storeObject(t, state, "tpf_thing.web", addrs.NotDeposed, thing(t, map[string]cty.Value{"id": str("i-1"), "name": str("web")}))
	unknownType := instance(t, "tpf_gadget.g")
	state.SetResourceInstanceCurrent(unknownType, &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"g"}`), Status: states.ObjectReady}, addrs.AbsProviderConfig{Provider: testProvider})

	got, ds := renderState(t, state, StateOptions{})
	if len(ds) != 1 || ds[0].Severity != diags.Warning || ds[0].Address != "tpf_gadget.g" || !strings.Contains(ds[0].Detail, "terrane init") {
		t.Fatalf("want one warning naming tpf_gadget.g and saying to run terrane init, got %v", ds)
	}
	if !strings.HasPrefix(got, "# tpf_thing.web:\n") || strings.Contains(got, "tpf_gadget") {
		t.Errorf("want only tpf_thing.web shown, got:\n%s", got)
	}
}

// TestRenderStateColourDoesNotChangeText checks that colour only adds
// escape codes.
func TestRenderStateColourDoesNotChangeText(t *testing.T) {
	plain, _ := renderState(t, everythingState(t), StateOptions{})
	coloured, _ := renderState(t, everythingState(t), StateOptions{Color: true})
	if stripANSI(coloured) != plain {
		t.Errorf("colour changes the text:\n%s", coloured)
	}
}
