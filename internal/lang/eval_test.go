package lang

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/schema"
)

func exampleData() *staticData {
	instance := func(id string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "tags": cty.MapVal(map[string]cty.Value{"Name": cty.StringVal(id)})})
	}
	return &staticData{
		variables: map[string]cty.Value{
			"name":    cty.StringVal("web"),
			"secret":  cty.StringVal("hunter2").Mark(marks.Sensitive),
			"pending": cty.UnknownVal(cty.String).RefineNotNull(),
			"zones":   cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
			"ports":   cty.UnknownVal(cty.List(cty.Number)),
			"token":   cty.StringVal("tok").Mark(marks.Ephemeral),
		},
		locals:  map[string]cty.Value{"prefix": cty.StringVal("prod")},
		modules: map[string]cty.Value{"net": cty.ObjectVal(map[string]cty.Value{"vpc_id": cty.StringVal("vpc-1")})},
		resources: map[string]cty.Value{
			"aws_instance.web":  cty.TupleVal([]cty.Value{instance("i-0"), instance("i-1")}),
			"aws_instance.solo": instance("i-solo"),
			"data.http.page":    cty.ObjectVal(map[string]cty.Value{"body": cty.StringVal("<html>")}),
			"aws_eip.pending":   cty.ObjectVal(map[string]cty.Value{"ip": cty.UnknownVal(cty.String)}),
		},
		count:     map[string]cty.Value{"index": cty.NumberIntVal(1)},
		each:      map[string]cty.Value{"key": cty.StringVal("k"), "value": cty.StringVal("v")},
		path:      map[string]cty.Value{"module": cty.StringVal("."), "root": cty.StringVal("."), "cwd": cty.StringVal("/work")},
		workspace: "default",
	}
}

func parseExpr(t testing.TB, src string) hcl.Expression {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse %q: %s", src, diags.Error())
	}
	return expr
}

func TestEvalExpr(t *testing.T) {
	tests := []struct {
		expr string
		want cty.Value
	}{
		{`var.name`, cty.StringVal("web")},
		{`"${local.prefix}-${var.name}-${count.index}"`, cty.StringVal("prod-web-1")},
		{`"${each.key}=${each.value}"`, cty.StringVal("k=v")},
		{`module.net.vpc_id`, cty.StringVal("vpc-1")},
		{`aws_instance.web[1].id`, cty.StringVal("i-1")},
		{`aws_instance.web[*].id`, cty.TupleVal([]cty.Value{cty.StringVal("i-0"), cty.StringVal("i-1")})},
		{`aws_instance.solo[*].id`, cty.TupleVal([]cty.Value{cty.StringVal("i-solo")})},
		{`resource.aws_instance.solo.tags.Name`, cty.StringVal("i-solo")},
		{`data.http.page.body`, cty.StringVal("<html>")},
		{`[for z in var.zones : upper(z) if z != "b"]`, cty.TupleVal([]cty.Value{cty.StringVal("A")})},
		{`{for i, z in var.zones : z => i}`, cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(0), "b": cty.NumberIntVal(1)})},
		{`var.name == "web" ? path.module : path.cwd`, cty.StringVal(".")},
		{`terraform.workspace`, cty.StringVal("default")},
		{`tofu.workspace`, cty.StringVal("default")},
		{`"%{ for z in var.zones }[${z}]%{ endfor }"`, cty.StringVal("[a][b]")},
		{`"${var.secret}!"`, cty.StringVal("hunter2!").Mark(marks.Sensitive)},
		{`length(var.secret)`, cty.NumberIntVal(7).Mark(marks.Sensitive)},
		{`var.pending`, cty.UnknownVal(cty.String).RefineNotNull()},
		{`var.pending == null`, cty.False},
		{`"x-${var.pending}"`, cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("x-").NewValue()},
		{`startswith("x-${var.pending}", "x-")`, cty.True},
		{`length(var.ports) == null`, cty.False},
		{`aws_eip.pending.ip`, cty.UnknownVal(cty.String)},
		{`core::upper(var.name)`, cty.StringVal("WEB")},
	}
	scope := &Scope{Data: exampleData(), BaseDir: "."}
	for _, test := range tests {
		t.Run(test.expr, func(t *testing.T) {
			got, diags := scope.EvalExpr(parseExpr(t, test.expr), cty.DynamicPseudoType)
			if diags.HasErrors() {
				t.Fatalf("unexpected error: %s", diags.Error())
			}
			if !got.RawEquals(test.want) {
				t.Fatalf("got  %#v\nwant %#v", got, test.want)
			}
		})
	}
}

func TestEvalExprErrors(t *testing.T) {
	tests := []struct {
		expr     string
		wantType cty.Type
		wantErr  string
	}{
		{`var.missing`, cty.DynamicPseudoType, "main.tf:1,1-12: Reference to undeclared input variable"},
		{`aws_instance.nope.id`, cty.DynamicPseudoType, "Reference to undeclared resource"},
		{`self.id`, cty.DynamicPseudoType, `Invalid "self" reference`},
		{`var.zones`, cty.Number, "main.tf:1,1-10: Incorrect value type; Invalid expression value: number required"},
		{`{a = "x"}`, cty.Object(map[string]cty.Type{"a": cty.Number}), `attribute "a": a number is required`},
		{`provider::aws::arn_parse("x")`, cty.DynamicPseudoType, "Provider function not available here"},
		{`count`, cty.DynamicPseudoType, `The "count" object cannot be accessed directly`},
	}
	scope := &Scope{Data: exampleData()}
	for _, test := range tests {
		t.Run(test.expr, func(t *testing.T) {
			got, diags := scope.EvalExpr(parseExpr(t, test.expr), test.wantType)
			if !diags.HasErrors() {
				t.Fatalf("got %#v, want error %q", got, test.wantErr)
			}
			if !strings.Contains(diags.Error(), test.wantErr) {
				t.Fatalf("error %q does not contain %q", diags.Error(), test.wantErr)
			}
			if got.IsKnown() {
				t.Errorf("value after an error is %#v, want unknown", got)
			}
		})
	}
}

func TestEvalExprConvertsToConstraint(t *testing.T) {
	scope := &Scope{Data: exampleData()}
	got, diags := scope.EvalExpr(parseExpr(t, `[1, "2"]`), cty.List(cty.String))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	want := cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("2")})
	if !got.RawEquals(want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

func TestSelfRefersToTheInstance(t *testing.T) {
	key := addrs.IntKey(1)
	self := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "web"}.Instance(key)
	scope := &Scope{Data: exampleData(), SelfAddr: self}
	got, diags := scope.EvalExpr(parseExpr(t, `self.id`), cty.String)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !got.RawEquals(cty.StringVal("i-1")) {
		t.Fatalf("self.id = %#v, want i-1", got)
	}
}

func TestProviderFunctionsResolveThroughCallback(t *testing.T) {
	var asked []string
	resolver := func(ref ProviderFunctionRef) (function.Function, bool, hcl.Diagnostics) {
		asked = append(asked, ref.String())
		if ref.Function != "reverse" {
			return function.Function{}, false, nil
		}
		return function.New(&function.Spec{
			Params: []function.Parameter{{Name: "s", Type: cty.String}},
			Type:   function.StaticReturnType(cty.String),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				r := []rune(args[0].AsString())
				for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
					r[i], r[j] = r[j], r[i]
				}
				return cty.StringVal(string(r)), nil
			},
		}), true, nil
	}
	scope := &Scope{Data: exampleData(), ProviderFunctions: resolver}
	got, diags := scope.EvalExpr(parseExpr(t, `provider::toy::reverse(var.name)`), cty.String)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !got.RawEquals(cty.StringVal("bew")) {
		t.Fatalf("got %#v", got)
	}
	_, diags = scope.EvalExpr(parseExpr(t, `provider::toy::west::nope(1)`), cty.String)
	if !strings.Contains(diags.Error(), `Function "provider::toy::west::nope" was not registered by provider`) {
		t.Fatalf("unknown provider function error = %q", diags.Error())
	}
	if strings.Join(asked, ",") != "provider::toy::reverse,provider::toy::west::nope" {
		t.Fatalf("resolver asked for %v", asked)
	}
	// The built-in provider needs no resolver.
	got, diags = (&Scope{Data: exampleData()}).EvalExpr(parseExpr(t, `provider::terraform::encode_expr(var.zones)`), cty.String)
	if diags.HasErrors() || !got.RawEquals(cty.StringVal(`["a", "b"]`)) {
		t.Fatalf("encode_expr = %#v, %s", got, diags.Error())
	}
}

func TestReferencesInExprHaveSourceRanges(t *testing.T) {
	expr := parseExpr(t, `"${var.name}-${aws_instance.web[0].id}" == [for x in module.net.ids : x][0] ? count.index : data.http.page.body`)
	refs, diags := ReferencesInExpr(expr)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, ref := range refs {
		got = append(got, ref.Subject.String()+"@"+ref.SourceRange.String())
	}
	want := []string{
		"var.name@main.tf:1,4-12",
		"aws_instance.web[0]@main.tf:1,16-35",
		"module.net.ids@main.tf:1,54-68",
		"count.index@main.tf:1,79-90",
		"data.http.page@main.tf:1,93-107",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("references:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const blockSource = `
name = "${var.name}-lb"
dynamic "listener" {
  for_each = var.zones
  iterator = zone
  content {
    port = 80 + zone.key
    zone = zone.value
  }
}
`

var listenerSpec = &hcldec.ObjectSpec{
	"name": &hcldec.AttrSpec{Name: "name", Type: cty.String, Required: true},
	"listener": &hcldec.BlockListSpec{TypeName: "listener", Nested: &hcldec.ObjectSpec{
		"port": &hcldec.AttrSpec{Name: "port", Type: cty.Number},
		"zone": &hcldec.AttrSpec{Name: "zone", Type: cty.String},
	}},
}

func parseBody(t testing.TB, src string) hcl.Body {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return file.Body
}

func TestEvalBlockExpandsDynamicBlocks(t *testing.T) {
	scope := &Scope{Data: exampleData()}
	got, diags := scope.EvalBlock(parseBody(t, blockSource), listenerSpec)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	listener := func(port int64, zone string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "zone": cty.StringVal(zone)})
	}
	want := cty.ObjectVal(map[string]cty.Value{
		"name":     cty.StringVal("web-lb"),
		"listener": cty.ListVal([]cty.Value{listener(80, "a"), listener(81, "b")}),
	})
	if !got.RawEquals(want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}

	refs, diags := ReferencesInBlock(parseBody(t, blockSource), listenerSpec)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var names []string
	for _, ref := range refs {
		names = append(names, ref.Subject.String())
	}
	// zone.key and zone.value are the iterator, not references.
	if strings.Join(names, ",") != "var.name,var.zones" {
		t.Fatalf("references = %v", names)
	}
}

func TestEvalBlockReportsSchemaErrors(t *testing.T) {
	scope := &Scope{Data: exampleData()}
	_, diags := scope.EvalBlock(parseBody(t, "name = \"a\"\nnam = \"x\""), listenerSpec)
	if !strings.Contains(diags.Error(), `main.tf:2,1-4: Unsupported argument; An argument named "nam" is not expected here.`) {
		t.Fatalf("diagnostics = %s", diags.Error())
	}
}

func TestProviderFunctionsInBody(t *testing.T) {
	body := parseBody(t, "a = provider::aws::arn_parse(var.x)\nb = provider::terraform::encode_expr(1)\nc { d = provider::k8s::west::manifest_decode(\"\") }\n")
	var got []string
	for _, ref := range ProviderFunctionsInBody(body) {
		got = append(got, ref.String()+"@"+ref.CallRange.String())
	}
	want := "provider::aws::arn_parse@main.tf:1,5-29 provider::terraform::encode_expr@main.tf:2,5-37 provider::k8s::west::manifest_decode@main.tf:3,9-45"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %v", got)
	}
}

func TestEphemeralInPersistedAttributes(t *testing.T) {
	block := &schema.Block{Attributes: map[string]*schema.Attribute{
		"name":        {Type: cty.String, Optional: true},
		"password_wo": {Type: cty.String, Optional: true, WriteOnly: true},
		"tags":        {Type: cty.Map(cty.String), Optional: true},
	}}
	token := cty.StringVal("tok").Mark(marks.Ephemeral)
	val := cty.ObjectVal(map[string]cty.Value{
		"name":        cty.StringVal("n"),
		"password_wo": token,
		"tags":        cty.MapVal(map[string]cty.Value{"a": token}),
	})
	_, pvm := val.UnmarkDeepWithPaths()
	ds := EphemeralInPersistedAttributes(block, pvm)
	if len(ds) != 1 {
		t.Fatalf("got %d diagnostics, want one for tags: %v", len(ds), ds)
	}
	d := ds[0]
	if d.Summary != "Ephemeral value used in non-ephemeral context" ||
		d.Detail != `Attribute ".tags[\"a\"]" is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.` ||
		!d.AttributePath.Equals(cty.GetAttrPath("tags").IndexString("a")) {
		t.Errorf("wrong diagnostic: %#v", d)
	}
	clean := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n"), "password_wo": token, "tags": cty.NullVal(cty.Map(cty.String))})
	_, pvm = clean.UnmarkDeepWithPaths()
	if ds := EphemeralInPersistedAttributes(block, pvm); len(ds) != 0 {
		t.Errorf("a write-only attribute was refused an ephemeral value: %v", ds)
	}
}
