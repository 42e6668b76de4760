package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
)

// secretSchema has a write-only attribute, as tpf_thing's password_wo.
var secretSchema = &schema.Block{Attributes: map[string]*schema.Attribute{
	"id":                  {Type: cty.String, Computed: true},
	"name":                {Type: cty.String, Required: true},
	"password_wo":         {Type: cty.String, Optional: true, Sensitive: true, WriteOnly: true},
	"password_wo_version": optional(cty.Number),
}}

func secretSchemas() *providers.Schemas {
	return &providers.Schemas{Providers: map[addrs.Provider]providers.GetProviderSchemaResponse{
		testProvider: {ResourceTypes: map[string]schema.Schema{"tpf_secret": {Block: secretSchema}}},
	}}
}

func secretObject(id cty.Value, version int64) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id": id, "name": cty.StringVal("a"), "password_wo": cty.NullVal(cty.String), "password_wo_version": cty.NumberIntVal(version),
	})
}

// The expected blocks are what OpenTofu 1.12 prints for tpf_thing's
// password_wo (its other attributes left out): the write-only attribute
// takes the action of the rest of the object.
func TestRenderPlanWriteOnlyAttributes(t *testing.T) {
	known := cty.StringVal("c4300aeb2073552d")
	null := cty.NullVal(secretSchema.ImpliedType())
	cases := []struct {
		name          string
		action        plans.Action
		before, after cty.Value
		want          string
	}{
		{"create", plans.Create, null, secretObject(cty.UnknownVal(cty.String), 1), `  + resource "tpf_secret" "a" {
      + id                  = (known after apply)
      + name                = "a"
      + password_wo         = (write-only attribute)
      + password_wo_version = 1
    }`},
		{"update shows it updated", plans.Update, secretObject(known, 1), secretObject(known, 2), `  ~ resource "tpf_secret" "a" {
        id                  = "c4300aeb2073552d"
        name                = "a"
      ~ password_wo         = (write-only attribute)
      ~ password_wo_version = 1 -> 2
    }`},
		{"delete", plans.Delete, secretObject(known, 1), null, `  - resource "tpf_secret" "a" {
      - id                  = "c4300aeb2073552d" -> null
      - name                = "a" -> null
      - password_wo         = (write-only attribute) -> null
      - password_wo_version = 1 -> null
    }`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			addr := instance(t, "tpf_secret.a")
			change := &plans.ResourceInstanceChange{
				ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr,
					ProviderAddr: addrs.AbsProviderConfig{Provider: testProvider}.Instance(addrs.NoKey)},
				Change: plans.Change{Action: tc.action, Before: tc.before, After: tc.after},
			}
			src, err := change.Encode(plans.ObjectTypes{Value: secretSchema.ImpliedType()})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if ds := RenderPlan(&out, planOf(src), secretSchemas(), PlanOptions{}); len(ds) > 0 {
				t.Fatalf("RenderPlan reported: %v", ds)
			}
			if !strings.Contains(out.String(), tc.want+"\n") {
				t.Errorf("plan lacks\n%s\ngot:\n%s", tc.want, out.String())
			}
		})
	}
}

func TestRenderStateWriteOnlyAttributes(t *testing.T) {
	state := states.NewState()
	obj := &states.ResourceInstanceObject{Value: secretObject(cty.StringVal("c4300aeb2073552d"), 1)}
	src, err := obj.Encode(secretSchema.ImpliedType(), 0)
	if err != nil {
		t.Fatal(err)
	}
	state.SetResourceInstanceCurrent(instance(t, "tpf_secret.a"), src, addrs.AbsProviderConfig{Provider: testProvider})
	var out bytes.Buffer
	if ds := RenderState(&out, state, secretSchemas(), StateOptions{}); len(ds) > 0 {
		t.Fatalf("RenderState reported: %v", ds)
	}
	want := `# tpf_secret.a:
resource "tpf_secret" "a" {
    id                  = "c4300aeb2073552d"
    name                = "a"
    password_wo         = (write-only attribute)
    password_wo_version = 1
}
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}
