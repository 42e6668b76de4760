package config

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

// TestDecodeProviderConfigRef checks the spellings of a provider argument,
// native and JSON, including instance keys written as literals, which HCL
// parses as part of the traversal rather than as an index expression.
func TestDecodeProviderConfigRef(t *testing.T) {
	tests := []struct {
		src, json   string
		name, alias string
		key         cty.Value // cty.NilVal: no key
		wantErr     bool
	}{
		{src: `tpf`, json: `"tpf"`, name: "tpf"},
		{src: `tpf.east`, json: `"tpf.east"`, name: "tpf", alias: "east"},
		{src: `tpf.by_region["eu"]`, json: `"tpf.by_region[\"eu\"]"`, name: "tpf", alias: "by_region", key: cty.StringVal("eu")},
		{src: `tpf.by_index[2]`, json: `"tpf.by_index[2]"`, name: "tpf", alias: "by_index", key: cty.NumberIntVal(2)},
		{src: `tpf.by_region[var.region]`, name: "tpf", alias: "by_region", key: cty.StringVal("from-var")},
		{src: `tpf["eu"]`, json: `"tpf[\"eu\"]"`, wantErr: true},
		{src: `tpf.a.b`, json: `"tpf.a.b"`, wantErr: true},
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal("from-var")})}}
	for _, test := range tests {
		t.Run(test.src, func(t *testing.T) {
			exprs := map[string]hcl.Expression{}
			native, parseDiags := hclsyntax.ParseExpression([]byte(test.src), "main.tf", hcl.InitialPos)
			if parseDiags.HasErrors() {
				t.Fatal(parseDiags.Error())
			}
			exprs["native"] = native
			if test.json != "" {
				file, parseDiags := json.Parse([]byte(`{"provider": `+test.json+`}`), "main.tf.json")
				if parseDiags.HasErrors() {
					t.Fatal(parseDiags.Error())
				}
				attrs, _ := file.Body.JustAttributes()
				exprs["json"] = attrs["provider"].Expr
			}
			for syntax, expr := range exprs {
				ref, diags := decodeProviderConfigRef(expr, "provider")
				if test.wantErr {
					if !diags.HasErrors() {
						t.Errorf("%s: accepted, want an error", syntax)
					}
					continue
				}
				if diags.HasErrors() {
					t.Fatalf("%s: %s", syntax, diags.Error())
				}
				if ref.Name != test.name || ref.Alias != test.alias {
					t.Errorf("%s: got %s.%s, want %s.%s", syntax, ref.Name, ref.Alias, test.name, test.alias)
				}
				if test.key == cty.NilVal {
					if ref.KeyExpr != nil {
						t.Errorf("%s: unexpected key expression", syntax)
					}
					continue
				}
				if ref.KeyExpr == nil {
					t.Fatalf("%s: no key expression", syntax)
				}
				key, valDiags := ref.KeyExpr.Value(ctx)
				if valDiags.HasErrors() || !key.RawEquals(test.key) {
					t.Errorf("%s: key = %#v (%s), want %#v", syntax, key, valDiags, test.key)
				}
			}
		})
	}
}
