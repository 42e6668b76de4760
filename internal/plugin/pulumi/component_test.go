package pulumi

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
)

func TestChildURN(t *testing.T) {
	component := objectURN("tpulumi:index:Pair", "p")
	nested := childURN(component, "tpulumi:index:Inner", "in")
	cases := []struct {
		parent, typeToken, name, want string
	}{
		{"", "tpulumi:index:Pair", "p", "urn:pulumi:terrane::terrane::tpulumi:index:Pair::p"},
		{component, "tpulumi:index:Thing", "p-left", "urn:pulumi:terrane::terrane::tpulumi:index:Pair$tpulumi:index:Thing::p-left"},
		{nested, "tpulumi:index:Thing", "deep", "urn:pulumi:terrane::terrane::tpulumi:index:Pair$tpulumi:index:Inner$tpulumi:index:Thing::deep"},
		{component, "tpulumi:index:Thing", "a::b", "urn:pulumi:terrane::terrane::tpulumi:index:Pair$tpulumi:index:Thing::a::b"},
	}
	for _, tc := range cases {
		if got := childURN(tc.parent, tc.typeToken, tc.name); got != tc.want {
			t.Errorf("childURN(%q, %q, %q) = %q, want %q", tc.parent, tc.typeToken, tc.name, got, tc.want)
		}
	}
}

func TestRedactedJSON(t *testing.T) {
	cases := []struct {
		name      string
		props     resource.PropertyMap
		want      string
		wantKnown bool
	}{
		{"plain", resource.PropertyMap{"name": resource.NewStringProperty("a"), "size": resource.NewNumberProperty(2)}, `{"name":"a","size":2}`, true},
		{"secret redacted", resource.PropertyMap{"password": resource.MakeSecret(resource.NewStringProperty("hunter2"))}, `{"password":"(sensitive)"}`, true},
		{"nested secret", resource.PropertyMap{"list": resource.NewArrayProperty([]resource.PropertyValue{resource.MakeSecret(resource.NewStringProperty("x"))})}, `{"list":["(sensitive)"]}`, true},
		{"unknown", resource.PropertyMap{"id": resource.MakeComputed(resource.NewStringProperty(""))}, `{"id":null}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wire, err := plugin.MarshalProperties(tc.props, marshalOptions)
			if err != nil {
				t.Fatal(err)
			}
			got, known := RedactedJSON(wireJSON(wire))
			if string(got) != tc.want || known != tc.wantKnown {
				t.Errorf("RedactedJSON = %s (known %v), want %s (known %v)", got, known, tc.want, tc.wantKnown)
			}
		})
	}
}

func TestMethodFunctionName(t *testing.T) {
	cases := []struct{ component, method, want string }{
		{"tpulumi:index:Pair", "describe", "pair_describe"},
		{"aws:s3/bucket:Bucket", "getPolicy", "s3_bucket_get_policy"},
		{"my-pkg:index:WebServer", "restart", "web_server_restart"},
	}
	for _, tc := range cases {
		if got := MethodFunctionName(tc.component, tc.method); got != tc.want {
			t.Errorf("MethodFunctionName(%q, %q) = %q, want %q", tc.component, tc.method, got, tc.want)
		}
	}
}

// TestComponentSchema: a component becomes a resource type with a
// children attribute and no replacing attributes, and its method a
// provider function rather than a data source.
func TestComponentSchema(t *testing.T) {
	pkg, problems := ParseSchema("tpulumi", []byte(`{
	  "name": "tpulumi",
	  "resources": {
	    "tpulumi:index:Pair": {
	      "isComponent": true,
	      "inputProperties": {"prefix": {"type": "string", "replaceOnChanges": true}},
	      "requiredInputs": ["prefix"],
	      "properties": {"leftId": {"type": "string"}},
	      "methods": {"describe": "tpulumi:index:Pair/describe"}
	    }
	  },
	  "functions": {
	    "tpulumi:index:Pair/describe": {
	      "inputs": {"properties": {"__self__": {"$ref": "#/resources/tpulumi:index:Pair"}, "separator": {"type": "string"}}},
	      "outputs": {"properties": {"result": {"type": "string"}}}
	    }
	  }
	}`))
	if problems.HasErrors() {
		t.Fatal(problems.Err())
	}
	rt := pkg.Resources["tpulumi_pair"]
	if rt == nil || !rt.Component {
		t.Fatalf("tpulumi_pair is not a component type: %+v", rt)
	}
	if rt.Schema.Block.Attributes[childrenAttr] == nil || !rt.Schema.Block.Attributes["left_id"].Computed {
		t.Errorf("component attributes: %v", rt.Schema.Block.Attributes)
	}
	if len(rt.ReplaceOnChanges) != 0 {
		t.Errorf("a component input replaces the component: %v", rt.ReplaceOnChanges)
	}
	if len(pkg.DataSources) != 0 {
		t.Errorf("the method became a data source: %v", sortedKeys(pkg.DataSources))
	}
	decl, ok := pkg.functionDecls()["pair_describe"]
	if !ok || len(decl.Parameters) != 2 || decl.Parameters[1].Name != "separator" || !decl.ReturnType.HasAttribute("result") {
		t.Errorf("pair_describe declared as %+v", decl)
	}
}

// TestChildrenValue: children are keyed by name, by name and type where
// children of different types share a name, in any registration order;
// a child to be created has an unknown ID.
func TestChildrenValue(t *testing.T) {
	thing := componentChild{URN: "u1", Type: "p:index:Thing", Name: "a", ID: "1"}
	gadget := componentChild{URN: "u2", Type: "p:index:Gadget", Name: "a", ID: "2"}
	fresh := componentChild{URN: "u3", Type: "p:index:Thing", Name: "b", pending: true}
	forward := childrenValue([]componentChild{thing, gadget, fresh})
	backward := childrenValue([]componentChild{fresh, gadget, thing})
	if !forward.RawEquals(backward) {
		t.Errorf("registration order changes the children attribute:\n%#v\n%#v", forward, backward)
	}
	keys := forward.AsValueMap()
	if _, ok := keys["a (p:index:Thing)"]; !ok || len(keys) != 3 {
		t.Errorf("children keys = %v", sortedKeys(keys))
	}
	if keys["b"].GetAttr("id").IsKnown() {
		t.Errorf("a child to be created has a known ID")
	}
}
