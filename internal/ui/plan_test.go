package ui

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/plans")

var testProvider = addrs.NewDefaultProvider("tpf")

func optional(ty cty.Type) *schema.Attribute { return &schema.Attribute{Type: ty, Optional: true} }

func nestedAttr(nesting schema.Nesting, attrs map[string]*schema.Attribute) *schema.Attribute {
	return &schema.Attribute{NestedType: &schema.Object{Nesting: nesting, Attributes: attrs}, Optional: true}
}

// thingSchema resembles a cloud resource: plain attributes of every kind,
// nested attribute types and nested blocks of every nesting mode.
var thingSchema = &schema.Block{
	Attributes: map[string]*schema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"name":     {Type: cty.String, Required: true},
		"size":     optional(cty.Number),
		"enabled":  optional(cty.Bool),
		"password": {Type: cty.String, Optional: true, Sensitive: true},
		"tags":     optional(cty.Map(cty.String)),
		"ports":    optional(cty.List(cty.Number)),
		"zones":    optional(cty.Set(cty.String)),
		"policy":   optional(cty.String),
		"settings": nestedAttr(schema.NestingSingle, map[string]*schema.Attribute{
			"mode":   optional(cty.String),
			"secret": {Type: cty.String, Optional: true, Sensitive: true},
		}),
		"disks": nestedAttr(schema.NestingList, map[string]*schema.Attribute{"kind": optional(cty.String), "size": optional(cty.Number)}),
		"rules": nestedAttr(schema.NestingSet, map[string]*schema.Attribute{"port": optional(cty.Number), "proto": optional(cty.String)}),
		"envs":  nestedAttr(schema.NestingMap, map[string]*schema.Attribute{"value": optional(cty.String)}),
	},
	BlockTypes: map[string]*schema.NestedBlock{
		"network":  {Nesting: schema.NestingList, Block: schema.Block{Attributes: map[string]*schema.Attribute{"cidr": optional(cty.String), "label": optional(cty.String)}}},
		"mount":    {Nesting: schema.NestingSet, Block: schema.Block{Attributes: map[string]*schema.Attribute{"path": optional(cty.String), "read_only": optional(cty.Bool)}}},
		"timeouts": {Nesting: schema.NestingSingle, Block: schema.Block{Attributes: map[string]*schema.Attribute{"create": optional(cty.String)}}},
		"listener": {Nesting: schema.NestingMap, Block: schema.Block{Attributes: map[string]*schema.Attribute{"port": optional(cty.Number)}}},
	},
}

var lookupSchema = &schema.Block{Attributes: map[string]*schema.Attribute{
	"id":     {Type: cty.String, Computed: true},
	"name":   {Type: cty.String, Required: true},
	"result": {Type: cty.String, Computed: true},
}}

func testSchemas() *providers.Schemas {
	return &providers.Schemas{Providers: map[addrs.Provider]providers.GetProviderSchemaResponse{
		testProvider: {
			ResourceTypes: map[string]schema.Schema{"tpf_thing": {Block: thingSchema}},
			DataSources:   map[string]schema.Schema{"tpf_lookup": {Block: lookupSchema}},
		},
	}}
}

// object builds a value of the block's type from the attributes given,
// the rest null; literal tuples and objects are converted to the
// attribute's type, keeping their marks.
func object(t *testing.T, block *schema.Block, attrs map[string]cty.Value) cty.Value {
	t.Helper()
	ty := block.ImpliedType()
	out := map[string]cty.Value{}
	for name, attrType := range ty.AttributeTypes() {
		v, ok := attrs[name]
		if !ok {
			out[name] = cty.NullVal(attrType)
			continue
		}
		converted, err := convert.Convert(v, attrType)
		if err != nil {
			t.Fatalf("attribute %s: %s", name, err)
		}
		out[name] = converted
	}
	for name := range attrs {
		if !ty.HasAttribute(name) {
			t.Fatalf("the schema has no attribute %q", name)
		}
	}
	return cty.ObjectVal(out)
}

func thing(t *testing.T, attrs map[string]cty.Value) cty.Value { return object(t, thingSchema, attrs) }

func str(s string) cty.Value { return cty.StringVal(s) }
func num(n int64) cty.Value  { return cty.NumberIntVal(n) }
func secret(v cty.Value) cty.Value {
	return v.Mark(marks.Sensitive)
}
func tuple(vs ...cty.Value) cty.Value { return cty.TupleVal(vs) }
func obj(attrs map[string]cty.Value) cty.Value {
	return cty.ObjectVal(attrs)
}

type changeOption func(*plans.ResourceInstanceChange)

func reason(r plans.ActionReason) changeOption {
	return func(c *plans.ResourceInstanceChange) { c.ActionReason = r }
}

func replacePaths(paths ...cty.Path) changeOption {
	return func(c *plans.ResourceInstanceChange) { c.RequiredReplace = paths }
}

func resourceChange(t *testing.T, addr string, action plans.Action, before, after cty.Value, options ...changeOption) *plans.ResourceInstanceChangeSrc {
	t.Helper()
	parsed := instance(t, addr)
	change := &plans.ResourceInstanceChange{
		ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{
			Addr: parsed, PrevRunAddr: parsed,
			ProviderAddr: addrs.AbsProviderConfig{Provider: testProvider}.Instance(addrs.NoKey),
		},
		Change: plans.Change{Action: action, Before: before, After: after},
	}
	for _, option := range options {
		option(change)
	}
	block := thingSchema
	if parsed.Resource.Resource.Mode == addrs.DataResourceMode {
		block = lookupSchema
	}
	src, err := change.Encode(plans.ObjectTypes{Value: block.ImpliedType()})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func outputChange(t *testing.T, name string, action plans.Action, before, after cty.Value, sensitive bool) *plans.OutputChangeSrc {
	t.Helper()
	change := &plans.OutputChange{
		Addr:      addrs.AbsOutputValue{OutputValue: addrs.OutputValue{Name: name}},
		Change:    plans.Change{Action: action, Before: before, After: after},
		Sensitive: sensitive,
	}
	src, err := change.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// checkGolden compares a rendering with testdata/plans/NAME.golden, or
// rewrites the file when the test runs with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "plans", name+".golden")
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

func renderForTest(t *testing.T, plan *plans.Plan, opts PlanOptions) string {
	t.Helper()
	var out bytes.Buffer
	if ds := RenderPlan(&out, plan, testSchemas(), opts); len(ds) > 0 {
		t.Fatalf("RenderPlan reported: %v", ds)
	}
	return out.String()
}

func TestRenderPlanGolden(t *testing.T) {
	for name, build := range planCases {
		t.Run(name, func(t *testing.T) {
			checkGolden(t, name, renderForTest(t, build(t), PlanOptions{}))
		})
	}
}

func TestRenderPlanColour(t *testing.T) {
	plan := planCases["create_everything"](t)
	coloured := renderForTest(t, plan, PlanOptions{Color: true})
	for _, want := range []string{ansiGreen + "+" + ansiReset + " create", ansiBold + "  # tpf_thing.web" + ansiReset + " will be created"} {
		if !strings.Contains(coloured, want) {
			t.Errorf("coloured rendering lacks %q", want)
		}
	}
	plain := renderForTest(t, plan, PlanOptions{})
	if strings.Contains(plain, "\x1b[") {
		t.Errorf("rendering without colour contains escape codes")
	}
	if stripped := stripANSI(coloured); stripped != plain {
		t.Errorf("colour changes more than the escape codes:\n%s", stripped)
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestRenderPlanReportsChangesItCannotShow(t *testing.T) {
	plan := &plans.Plan{}
	plan.Changes.Resources = append(plan.Changes.Resources, resourceChange(t, "tpf_thing.web", plans.Create, cty.NullVal(thingSchema.ImpliedType()), thing(t, map[string]cty.Value{"name": str("web")})))
	var out bytes.Buffer
	ds := RenderPlan(&out, plan, &providers.Schemas{}, PlanOptions{})
	if len(ds) != 1 || ds[0].Address != "tpf_thing.web" || !strings.Contains(ds[0].Detail, "terrane init") {
		t.Fatalf("diagnostics %v; want one about tpf_thing.web saying what to do", ds)
	}
}

func TestColorEnabled(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if !ColorEnabled(false) || ColorEnabled(true) {
		t.Errorf("without NO_COLOR, colour should follow the flag")
	}
	// OpenTofu keeps its colours when NO_COLOR is set.
	t.Setenv("NO_COLOR", "1")
	if !ColorEnabled(false) {
		t.Errorf("NO_COLOR=1 should change nothing")
	}
}

func TestAttributeNameQuotesWhatIsNotAnIdentifier(t *testing.T) {
	for name, want := range map[string]string{
		"id": "id", "read_only": "read_only", "kebab-case": "kebab-case", "_x": "_x", "café": "café",
		"a b": `"a b"`, "1st": `"1st"`, "-x": `"-x"`, "": `""`, `q"uote`: `"q\"uote"`,
	} {
		if got := attributeName(name); got != want {
			t.Errorf("attributeName(%q) = %s, want %s", name, got, want)
		}
	}
}

// A plan lists its real changes; the no-op changes beside them are never
// decoded, so a plan of one change among many unchanged instances costs the
// memory and time of the one. No-ops whose values are not msgpack show
// that: decoding one would fail.
func TestRenderPlanNeverDecodesNoOpChanges(t *testing.T) {
	plan := &plans.Plan{}
	web := thing(t, map[string]cty.Value{"name": str("web"), "size": num(1)})
	plan.Changes.Resources = append(plan.Changes.Resources,
		resourceChange(t, "tpf_thing.web", plans.Update, web, thing(t, map[string]cty.Value{"name": str("web"), "size": num(2)})))
	for _, name := range []string{"tpf_thing.a", "tpf_thing.b"} {
		noop := resourceChange(t, name, plans.NoOp, web, web)
		noop.Before.Msgpack, noop.After.Msgpack = []byte{0xff}, []byte{0xff} // not msgpack
		plan.Changes.Resources = append(plan.Changes.Resources, noop)
	}
	out := renderForTest(t, plan, PlanOptions{})
	if !strings.Contains(out, "tpf_thing.web will be updated in-place") || !strings.Contains(out, "Plan: 0 to add, 1 to change, 0 to destroy.") {
		t.Errorf("the one change is not shown:\n%s", out)
	}
	if strings.Contains(out, "tpf_thing.a") || strings.Contains(out, "tpf_thing.b") {
		t.Errorf("no-op changes are shown:\n%s", out)
	}
}
