package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

func attrSchema() *schema.Block {
	return &schema.Block{Attributes: map[string]*schema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"name":     {Type: cty.String, Required: true},
		"optional": {Type: cty.String, Optional: true},
		"opt_comp": {Type: cty.String, Optional: true, Computed: true},
		"secret":   {Type: cty.String, Optional: true, Sensitive: true},
		"password": {Type: cty.String, Optional: true, WriteOnly: true},
	}}
}

// attrs builds a value of attrSchema; unset attributes are null.
func attrs(set map[string]cty.Value) cty.Value {
	v := map[string]cty.Value{
		"id": nullS, "name": nullS, "optional": nullS, "opt_comp": nullS, "secret": nullS, "password": nullS,
	}
	for k, val := range set {
		v[k] = val
	}
	return obj(v)
}

func TestAssertPlanValidAttributes(t *testing.T) {
	none := cty.NullVal(attrSchema().ImpliedType())
	tests := map[string]struct {
		prior, config, planned cty.Value
		want                   []string
	}{
		"create planning the configuration and unknown computed values": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a")}),
			planned: attrs(map[string]cty.Value{"name": str("a"), "id": unkS, "opt_comp": unkS}),
		},
		"optional+computed left null may get a provider default": {
			prior:   attrs(map[string]cty.Value{"id": str("i"), "name": str("a"), "opt_comp": str("user value")}),
			config:  attrs(map[string]cty.Value{"name": str("a")}),
			planned: attrs(map[string]cty.Value{"id": str("i"), "name": str("a"), "opt_comp": str("default")}),
		},
		"computed-only may change however the provider likes": {
			prior:   attrs(map[string]cty.Value{"id": str("i"), "name": str("a")}),
			config:  attrs(map[string]cty.Value{"name": str("b")}),
			planned: attrs(map[string]cty.Value{"id": str("other"), "name": str("b")}),
		},
		"keeping the prior value over an equivalent configured one": {
			prior:   attrs(map[string]cty.Value{"id": str("i"), "name": str("A")}),
			config:  attrs(map[string]cty.Value{"name": str("a")}),
			planned: attrs(map[string]cty.Value{"id": str("i"), "name": str("A")}),
		},
		"unknown configuration planned unknown, with a refinement added": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": unkS}),
			planned: attrs(map[string]cty.Value{"name": unkS.RefineNotNull(), "id": unkS}),
		},
		"a configured value changed": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a")}),
			planned: attrs(map[string]cty.Value{"name": str("b")}),
			want:    []string{`name: planned "b", which does not match the configured "a"`},
		},
		"a configured value changed on update names the prior too": {
			prior:   attrs(map[string]cty.Value{"name": str("a")}),
			config:  attrs(map[string]cty.Value{"name": str("b")}),
			planned: attrs(map[string]cty.Value{"name": str("c")}),
			want:    []string{`name: planned "c", which matches neither the configured "b" nor the prior "a"`},
		},
		"a known configured value planned unknown": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a"), "opt_comp": str("x")}),
			planned: attrs(map[string]cty.Value{"name": str("a"), "opt_comp": unkS}),
			want:    []string{`opt_comp: planned (known after apply), which does not match the configured "x"`},
		},
		"a non-computed attribute given a value the configuration leaves null": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a")}),
			planned: attrs(map[string]cty.Value{"name": str("a"), "optional": str("invented")}),
			want:    []string{`optional: planned "invented" for a non-computed attribute the configuration leaves null`},
		},
		"a non-computed attribute planned unknown where the configuration leaves it null": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a")}),
			planned: attrs(map[string]cty.Value{"name": str("a"), "optional": unkS}),
			want:    []string{`optional: planned (known after apply) for a non-computed attribute`},
		},
		"a known value planned for an unknown configuration": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": unkS}),
			planned: attrs(map[string]cty.Value{"name": str("guess")}),
			want:    []string{`name: planned "guess", but the configuration's value is not known yet`},
		},
		"a sensitive attribute's values are not shown": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a"), "secret": str("hunter2")}),
			planned: attrs(map[string]cty.Value{"name": str("a"), "secret": str("hunter3")}),
			want:    []string{"secret: sensitive planned value does not match"},
		},
		"a marked value's attribute is not shown": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a"), "optional": str("s3cret").Mark("sensitive")}),
			planned: attrs(map[string]cty.Value{"name": str("a"), "optional": str("other")}),
			want:    []string{"optional: sensitive planned value does not match"},
		},
		"a write-only attribute must be planned null": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a"), "password": str("pw")}),
			planned: attrs(map[string]cty.Value{"name": str("a"), "password": str("pw")}),
			want:    []string{"password: planned a value for a write-only attribute"},
		},
		"a write-only attribute planned null is fine": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a"), "password": str("pw")}),
			planned: attrs(map[string]cty.Value{"name": str("a")}),
		},
		"planned absent while configured": {
			prior:   none,
			config:  attrs(map[string]cty.Value{"name": str("a")}),
			planned: none,
			want:    []string{"planned for absence but the configuration wants it present"},
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			errs := AssertPlanValid(attrSchema(), test.prior, test.config, test.planned)
			wantErrors(t, errs, test.want...)
		})
	}
}

func TestAssertPlanValidNestedBlocks(t *testing.T) {
	sch := blockSchema()
	tests := map[string]struct {
		prior, config, planned cty.Value
		want                   []string
	}{
		"computed attributes inside every kind of block may be planned": {
			prior: cty.NullVal(sch.ImpliedType()),
			config: blocks(nullS, map[string]cty.Value{
				"single": inner(str("s"), nullS),
				"list":   cty.ListVal([]cty.Value{inner(str("l"), nullS)}),
				"set":    cty.SetVal([]cty.Value{inner(str("e"), nullS)}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m"), nullS)}),
			}),
			planned: blocks(unkS, map[string]cty.Value{
				"single": inner(str("s"), unkS),
				"group":  inner(nullS, str("g")),
				"list":   cty.ListVal([]cty.Value{inner(str("l"), unkS)}),
				"set":    cty.SetVal([]cty.Value{inner(str("e"), unkS)}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m"), unkS)}),
			}),
		},
		"a configured attribute inside a list block changed": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("l"), nullS)})}),
			planned: blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("L"), nullS)})}),
			want:    []string{`list[0].name: planned "L", which does not match the configured "l"`},
		},
		"blocks added to a list": {
			prior:  cty.NullVal(sch.ImpliedType()),
			config: blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("l"), nullS)})}),
			planned: blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{
				inner(str("l"), nullS), inner(str("extra"), nullS),
			})}),
			want: []string{"list: planned 2 elements, but the configuration has 1"},
		},
		"a map block key the configuration lacks": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{"a": inner(str("m"), nullS)})}),
			planned: blocks(nullS, map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{"b": inner(str("m"), nullS)})}),
			want: []string{
				`map["b"]: planned an element the configuration does not have`,
				`map["a"]: the configuration has this element, but the plan does not`,
			},
		},
		"a single block planned though not configured": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, nil),
			planned: blocks(nullS, map[string]cty.Value{"single": inner(nullS, str("u"))}),
			want:    []string{"single: planned for existence but the configuration wants it absent"},
		},
		"a block collection planned null": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, nil),
			planned: blocks(nullS, map[string]cty.Value{"set": cty.NullVal(cty.Set(innerType))}),
			want:    []string{"set: planned null for a collection of nested blocks"},
		},
		"a block collection planned unknown": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("l"), nullS)})}),
			planned: blocks(nullS, map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType))}),
			want:    []string{"list: planned a nested block collection as unknown"},
		},
		"a set block element planned unknown": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(str("e"), nullS)})}),
			planned: blocks(nullS, map[string]cty.Value{"set": cty.SetVal([]cty.Value{cty.UnknownVal(innerType)})}),
			want:    []string{"set: planned a set element as unknown"},
		},
		"a list block element planned unknown": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("e"), nullS)})}),
			planned: blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{cty.UnknownVal(innerType)})}),
			want:    []string{"list[0]: planned as unknown, but the configuration gives a known object"},
		},
		"blocks planned for a dynamic block over an unknown for_each": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType))}),
			planned: blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("x"), nullS)})}),
			want:    []string{"list: planned [{name = \"x\", uid = null}] for a dynamic block whose for_each is not known yet"},
		},
		"a dynamic block over an unknown for_each planned unknown": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType))}),
			planned: blocks(nullS, map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType))}),
		},
		"a null list from a legacy prior carried by ignore_changes": {
			prior:   cty.NullVal(sch.ImpliedType()),
			config:  blocks(nullS, map[string]cty.Value{"list": cty.NullVal(cty.List(innerType))}),
			planned: blocks(nullS, nil),
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			errs := AssertPlanValid(sch, test.prior, test.config, test.planned)
			wantErrors(t, errs, test.want...)
		})
	}
}

func TestAssertPlanValidNestedAttributes(t *testing.T) {
	tests := map[string]struct {
		optionalComputed       bool
		prior, config, planned cty.Value
		want                   []string
	}{
		"computed attributes inside nested objects may be planned": {
			prior: nested(nil),
			config: nested(map[string]cty.Value{
				"single": inner(str("a"), nullS),
				"list":   cty.ListVal([]cty.Value{inner(str("l"), nullS)}),
				"set":    cty.SetVal([]cty.Value{inner(str("s"), nullS)}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m"), nullS)}),
			}),
			planned: nested(map[string]cty.Value{
				"single": inner(str("a"), unkS),
				"list":   cty.ListVal([]cty.Value{inner(str("l"), unkS)}),
				"set":    cty.SetVal([]cty.Value{inner(str("s"), unkS)}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m"), str("u"))}),
			}),
		},
		"a configured attribute inside a nested list changed": {
			prior:   nested(nil),
			config:  nested(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("l"), nullS)})}),
			planned: nested(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("x"), nullS)})}),
			want:    []string{`list[0].name: planned "x", which does not match the configured "l"`},
		},
		"a nested map planned with a key the configuration lacks": {
			prior:  nested(nil),
			config: nested(map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{"k": inner(str("m"), nullS)})}),
			planned: nested(map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{
				"k": inner(str("m"), nullS), "extra": inner(str("m"), nullS),
			})}),
			want: []string{`map["extra"]: planned an element the configuration does not have`},
		},
		"an optional nested object planned though not configured": {
			prior:   nested(nil),
			config:  nested(nil),
			planned: nested(map[string]cty.Value{"single": inner(nullS, str("u"))}),
			want:    []string{"single: planned {name = null, uid = \"u\"} for a non-computed attribute"},
		},
		"an optional+computed nested object may be planned when not configured": {
			optionalComputed: true,
			prior:            nested(nil),
			config:           nested(nil),
			planned:          nested(map[string]cty.Value{"single": inner(nullS, str("u"))}),
		},
		"a configured nested object planned unknown": {
			prior:   nested(nil),
			config:  nested(map[string]cty.Value{"single": inner(str("a"), nullS)}),
			planned: nested(map[string]cty.Value{"single": cty.UnknownVal(innerType)}),
			want:    []string{"single: planned as unknown, but the configuration gives a known object"},
		},
		"a wholly unknown nested list planned unknown": {
			prior:   nested(nil),
			config:  nested(map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType))}),
			planned: nested(map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType))}),
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			errs := AssertPlanValid(nestedSchema(test.optionalComputed), test.prior, test.config, test.planned)
			wantErrors(t, errs, test.want...)
		})
	}
}

// A provider's plan for what the engine itself proposed is always valid:
// ProposedNew and AssertPlanValid agree on the rules.
func TestProposedNewIsAValidPlan(t *testing.T) {
	cases := []struct {
		sch           *schema.Block
		prior, config cty.Value
	}{
		{attrSchema(), attrs(map[string]cty.Value{"id": str("i"), "name": str("a"), "opt_comp": str("d")}),
			attrs(map[string]cty.Value{"name": str("b"), "optional": unkS})},
		{blockSchema(), blocks(str("i"), map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(str("a"), str("u"))})}),
			blocks(nullS, map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(str("a"), nullS), inner(str("b"), nullS)})})},
		{nestedSchema(true), nested(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("l"), str("u"))})}),
			nested(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("l"), nullS)}), "single": inner(unkS, nullS)})},
	}
	for i, c := range cases {
		proposed := ProposedNew(c.sch, c.prior, c.config)
		if errs := AssertPlanValid(c.sch, c.prior, c.config, proposed); len(errs) > 0 {
			t.Errorf("case %d: the proposed new state is not a valid plan:\n%s", i, renderErrors(errs))
		}
	}
}
