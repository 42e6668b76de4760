package schema

import (
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// secretSchema has sensitive attributes at every place one can be.
func secretSchema() *Block {
	secretContent := map[string]*Attribute{"user": optionalAttr(cty.String), "password": {Type: cty.String, Optional: true, Sensitive: true}}
	return &Block{
		Attributes: map[string]*Attribute{
			"id":    computedAttr(cty.String),
			"token": {Type: cty.String, Computed: true, Sensitive: true},
			"tags":  optionalAttr(cty.Map(cty.String)),
			"login": nestedAttr(NestingSingle, secretContent),
			"users": nestedAttr(NestingList, secretContent),
			"byname": nestedAttr(NestingMap, map[string]*Attribute{
				"inner": nestedAttr(NestingSet, secretContent),
			}),
			"whole": {NestedType: &Object{Nesting: NestingList, Attributes: secretContent}, Optional: true, Sensitive: true},
		},
		BlockTypes: map[string]*NestedBlock{
			"conn":   {Nesting: NestingSingle, Block: blockOf(secretContent)},
			"extra":  {Nesting: NestingList, Block: blockOf(secretContent)},
			"public": {Nesting: NestingList, Block: blockOf(plainContent)},
		},
	}
}

func cred(user, password string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"user": cty.StringVal(user), "password": cty.StringVal(password)})
}

func TestSensitivePaths(t *testing.T) {
	b := secretSchema()
	credType := cty.Object(map[string]cty.Type{"user": cty.String, "password": cty.String})
	val := cty.ObjectVal(map[string]cty.Value{
		"id":     cty.StringVal("x"),
		"token":  cty.NullVal(cty.String),
		"tags":   cty.NullVal(cty.Map(cty.String)),
		"login":  cred("root", "pw"),
		"users":  cty.ListVal([]cty.Value{cred("a", "1"), cred("b", "2")}),
		"byname": cty.MapVal(map[string]cty.Value{"k": cty.ObjectVal(map[string]cty.Value{"inner": cty.SetVal([]cty.Value{cred("s", "3")})})}),
		"whole":  cty.ListVal([]cty.Value{cred("w", "4")}),
		"conn":   cred("c", "5"),
		"extra":  cty.UnknownVal(cty.List(credType)),
		"public": cty.ListVal([]cty.Value{plainObj("p", cty.NullVal(cty.Number))}),
	})
	want := []string{
		`["byname"]["k"]["inner"][{"password":"3","user":"s"}]["password"]`,
		`["conn"]["password"]`,
		`["login"]["password"]`,
		`["token"]`,
		`["users"][0]["password"]`,
		`["users"][1]["password"]`,
		`["whole"]`,
	}
	got := b.SensitivePaths(val.Mark("anything"))
	if gotStrings := pathStrings(got); strings.Join(gotStrings, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(gotStrings, "\n"), strings.Join(want, "\n"))
	}
	// The paths must be usable to mark the value.
	marked := val.MarkWithPaths(pathMarks(got))
	if !marked.GetAttr("users").Index(cty.NumberIntVal(1)).GetAttr("password").HasMark("sensitive") {
		t.Error("marking with the paths did not mark .users[1].password")
	}
	if marked.GetAttr("users").Index(cty.NumberIntVal(1)).GetAttr("user").IsMarked() {
		t.Error(".users[1].user was marked")
	}
}

func TestSensitivePathsOfNullValue(t *testing.T) {
	b := secretSchema()
	got := pathStrings(b.SensitivePaths(cty.NullVal(b.ImpliedType())))
	if want := []string{`["token"]`, `["whole"]`}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
	if paths := (&Block{Attributes: plainContent}).SensitivePaths(cty.EmptyObjectVal); paths != nil {
		t.Errorf("a schema with nothing sensitive gave %v", paths)
	}
}

func TestContainsSensitive(t *testing.T) {
	tests := []struct {
		name  string
		block *Block
		want  bool
	}{
		{"plain", &Block{Attributes: plainContent}, false},
		{"nil", nil, false},
		{"top attribute", &Block{Attributes: map[string]*Attribute{"s": {Type: cty.String, Optional: true, Sensitive: true}}}, true},
		{"deep in nested attributes", &Block{Attributes: map[string]*Attribute{"n": nestedAttr(NestingList, map[string]*Attribute{
			"m": nestedAttr(NestingMap, map[string]*Attribute{"s": {Type: cty.String, Optional: true, Sensitive: true}}),
		})}}, true},
		{"in a nested block", &Block{BlockTypes: map[string]*NestedBlock{"b": {Nesting: NestingSet, Block: Block{
			Attributes: map[string]*Attribute{"s": {Type: cty.String, Optional: true, Sensitive: true}},
		}}}}, true},
	}
	for _, tc := range tests {
		if got := tc.block.ContainsSensitive(); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestAttributeByPath(t *testing.T) {
	b := secretSchema()
	tests := []struct {
		name string
		path cty.Path
		want *Attribute
	}{
		{"top attribute", cty.GetAttrPath("token"), b.Attributes["token"]},
		{"nested attribute itself", cty.GetAttrPath("users"), b.Attributes["users"]},
		{"inside nested attribute list", cty.GetAttrPath("users").IndexInt(3).GetAttr("password"), b.Attributes["users"].NestedType.Attributes["password"]},
		{"inside nested single", cty.GetAttrPath("login").GetAttr("user"), b.Attributes["login"].NestedType.Attributes["user"]},
		{"two levels of nested attributes", cty.GetAttrPath("byname").IndexString("k").GetAttr("inner").Index(cred("a", "b")).GetAttr("password"),
			b.Attributes["byname"].NestedType.Attributes["inner"].NestedType.Attributes["password"]},
		{"in a single block", cty.GetAttrPath("conn").GetAttr("password"), b.BlockTypes["conn"].Attributes["password"]},
		{"in a list block", cty.GetAttrPath("extra").IndexInt(0).GetAttr("user"), b.BlockTypes["extra"].Attributes["user"]},
		{"a block is not an attribute", cty.GetAttrPath("conn"), nil},
		{"inside a plain attribute's value", cty.GetAttrPath("tags").IndexString("x"), nil},
		{"no such attribute", cty.GetAttrPath("nope"), nil},
		{"no such attribute in a block", cty.GetAttrPath("conn").GetAttr("nope"), nil},
		{"empty path", cty.Path{}, nil},
	}
	for _, tc := range tests {
		if got := b.AttributeByPath(tc.path); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestStaticValidateTraversal(t *testing.T) {
	b := secretSchema()
	b.Attributes["old"] = &Attribute{Type: cty.String, Optional: true, Deprecated: true}
	b.BlockTypes["rules"] = &NestedBlock{Nesting: NestingSet, Block: blockOf(plainContent)}
	b.BlockTypes["named"] = &NestedBlock{Nesting: NestingMap, Block: blockOf(plainContent)}
	tests := []struct {
		expr        string
		wantSummary string // "" for no diagnostics
		wantDetail  string
	}{
		{"x.id", "", ""},
		{"x.users[0].password", "", ""},
		{"x.extra[0].user", "", ""},
		{"x.conn.user", "", ""},
		{"x.named.k.name", "", ""},
		{`x.named["k"].size`, "", ""},
		{"x.rules", "", ""},
		{"x.tokn", "Unsupported attribute", `Did you mean "token"?`},
		{"x.conn.pasword", "Unsupported attribute", `Did you mean "password"?`},
		{"x.zzzzzzzz", "Unsupported attribute", `named "zzzzzzzz".`},
		{`x["id"]`, "Invalid index operation", `access attribute "id" using the dot operator`},
		{"x.extra.user", "Invalid operation", "must be indexed with a number"},
		{"x.rules[0]", "Cannot index a set value", `"rules" is a set of objects`},
		{"x.id.foo", "Unsupported attribute", ""},
		{"x.old", "Deprecated attribute", `"old" is deprecated`},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			traversal, parseDiags := hclsyntax.ParseTraversalAbs([]byte(tc.expr), "main.tf", hcl.InitialPos)
			if parseDiags.HasErrors() {
				t.Fatal(parseDiags.Error())
			}
			diags := b.StaticValidateTraversal(hcl.Traversal(traversal[1:]))
			if tc.wantSummary == "" {
				if len(diags) > 0 {
					t.Errorf("unexpected diagnostics: %s", diags.Error())
				}
				return
			}
			if len(diags) == 0 {
				t.Fatalf("no diagnostics; want %q", tc.wantSummary)
			}
			d := diags[0]
			if d.Summary != tc.wantSummary || !strings.Contains(d.Detail, tc.wantDetail) {
				t.Errorf("got %q: %q; want %q containing %q", d.Summary, d.Detail, tc.wantSummary, tc.wantDetail)
			}
			if d.Subject == nil || d.Subject.Filename != "main.tf" {
				t.Error("diagnostic has no source range")
			}
		})
	}
}

func TestInternalValidate(t *testing.T) {
	if err := secretSchema().InternalValidate(); err != nil {
		t.Errorf("a valid schema failed: %s", err)
	}
	bad := &Block{
		Attributes: map[string]*Attribute{
			"neither":  {Type: cty.String},
			"both":     {Type: cty.String, Required: true, Optional: true},
			"untyped":  {Optional: true},
			"twotypes": {Type: cty.String, NestedType: &Object{Nesting: NestingSingle}, Optional: true},
			"dynset":   nestedAttr(NestingSet, dynamicContent),
			"badnest":  nestedAttr(NestingGroup, plainContent),
			"clash":    optionalAttr(cty.String),
			"nilattr":  nil,
		},
		BlockTypes: map[string]*NestedBlock{
			"clash":     {Nesting: NestingList},
			"Bad-Name":  {Nesting: NestingList},
			"single":    {Nesting: NestingSingle, MinItems: 1},
			"group":     {Nesting: NestingGroup, MaxItems: 1},
			"list":      {Nesting: NestingList, MinItems: 3, MaxItems: 2},
			"dynset":    {Nesting: NestingSet, Block: blockOf(dynamicContent)},
			"invalid":   {},
			"deep":      {Nesting: NestingList, Block: Block{Attributes: map[string]*Attribute{"inner": {Type: cty.String}}}},
			"nilblock":  nil,
			"maplimits": {Nesting: NestingMap, MinItems: 1},
		},
	}
	err := bad.InternalValidate()
	if err == nil {
		t.Fatal("an invalid schema passed")
	}
	for _, want := range []string{
		"neither: the attribute must be Optional, Required or Computed",
		"both: the attribute cannot be both Optional and Required",
		"untyped: the attribute has neither a type nor a nested type",
		"twotypes: the attribute has both a type and a nested type",
		"dynset: a set of nested objects may not contain dynamically-typed attributes",
		"badnest: invalid nesting mode group for a nested attribute type",
		"clash: the name is both an attribute and a block type",
		"nilattr: the attribute has no schema",
		"Bad-Name: a block type name may contain only lowercase letters",
		"single: a single block's MinItems and MaxItems must both be 0 or both be 1",
		"group: MinItems and MaxItems cannot be used with group nesting",
		"list: MinItems (3) is greater than MaxItems (2)",
		"dynset: a set of blocks may not contain dynamically-typed attributes",
		"invalid: invalid nesting mode invalid",
		"deep.inner: the attribute must be Optional, Required or Computed",
		"nilblock: the block type has no schema",
		"maplimits: MinItems and MaxItems cannot be used with map nesting",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not report %q", want)
		}
	}
	// An invalid schema must still not make the rest of the package panic.
	_ = bad.ImpliedType()
	_ = bad.DecoderSpec()
	_ = bad.EmptyValue()
	if (*Block)(nil).InternalValidate() == nil {
		t.Error("a nil schema passed")
	}
}

func pathStrings(paths []cty.Path) []string {
	out := make([]string, len(paths))
	for i, path := range paths {
		var b strings.Builder
		for _, step := range path {
			switch st := step.(type) {
			case cty.GetAttrStep:
				b.WriteString(`["` + st.Name + `"]`)
			case cty.IndexStep:
				b.WriteString("[" + stepKey(st.Key) + "]")
			}
		}
		out[i] = b.String()
	}
	sort.Strings(out)
	return out
}

func stepKey(key cty.Value) string {
	switch {
	case key.Type() == cty.String:
		return `"` + key.AsString() + `"`
	case key.Type() == cty.Number:
		return key.AsBigFloat().Text('f', -1)
	default:
		attrs := key.AsValueMap()
		names := make([]string, 0, len(attrs))
		for name := range attrs {
			names = append(names, name)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, name := range names {
			parts[i] = `"` + name + `":"` + attrs[name].AsString() + `"`
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

func pathMarks(paths []cty.Path) []cty.PathValueMarks {
	out := make([]cty.PathValueMarks, len(paths))
	for i, path := range paths {
		out[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks("sensitive")}
	}
	return out
}
