package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

func TestProposedNewAttributes(t *testing.T) {
	sch := &schema.Block{Attributes: map[string]*schema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"name":     {Type: cty.String, Required: true},
		"optional": {Type: cty.String, Optional: true},
		"opt_comp": {Type: cty.String, Optional: true, Computed: true},
	}}
	tests := map[string]struct {
		prior, config, want cty.Value
	}{
		"create: computed attributes stay null for the provider to decide": {
			prior:  cty.NullVal(sch.ImpliedType()),
			config: obj(map[string]cty.Value{"id": nullS, "name": str("a"), "optional": nullS, "opt_comp": nullS}),
			want:   obj(map[string]cty.Value{"id": nullS, "name": str("a"), "optional": nullS, "opt_comp": nullS}),
		},
		"update: computed values kept, configured values taken": {
			prior:  obj(map[string]cty.Value{"id": str("i-1"), "name": str("a"), "optional": str("o"), "opt_comp": str("default")}),
			config: obj(map[string]cty.Value{"id": nullS, "name": str("b"), "optional": nullS, "opt_comp": nullS}),
			want:   obj(map[string]cty.Value{"id": str("i-1"), "name": str("b"), "optional": nullS, "opt_comp": str("default")}),
		},
		"optional+computed set in config wins over prior": {
			prior:  obj(map[string]cty.Value{"id": str("i-1"), "name": str("a"), "optional": nullS, "opt_comp": str("default")}),
			config: obj(map[string]cty.Value{"id": nullS, "name": str("a"), "optional": nullS, "opt_comp": str("mine")}),
			want:   obj(map[string]cty.Value{"id": str("i-1"), "name": str("a"), "optional": nullS, "opt_comp": str("mine")}),
		},
		"unknown configuration values are proposed unknown, refinements kept": {
			prior:  obj(map[string]cty.Value{"id": str("i-1"), "name": str("a"), "optional": nullS, "opt_comp": str("x")}),
			config: obj(map[string]cty.Value{"id": nullS, "name": unkS.RefineNotNull(), "optional": unkS, "opt_comp": unkS}),
			want:   obj(map[string]cty.Value{"id": str("i-1"), "name": unkS.RefineNotNull(), "optional": unkS, "opt_comp": unkS}),
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			got := ProposedNew(sch, test.prior, test.config)
			if !got.RawEquals(test.want) {
				t.Errorf("wrong proposed new state\ngot:  %#v\nwant: %#v", got, test.want)
			}
		})
	}
}

// blockSchema has a nested block type of every nesting mode, each block
// with one configured and one computed attribute.
func blockSchema() *schema.Block {
	inner := func() schema.Block {
		return schema.Block{Attributes: map[string]*schema.Attribute{
			"name": {Type: cty.String, Optional: true},
			"uid":  {Type: cty.String, Computed: true},
		}}
	}
	return &schema.Block{
		Attributes: map[string]*schema.Attribute{"id": {Type: cty.String, Computed: true}},
		BlockTypes: map[string]*schema.NestedBlock{
			"single": {Nesting: schema.NestingSingle, Block: inner()},
			"group":  {Nesting: schema.NestingGroup, Block: inner()},
			"list":   {Nesting: schema.NestingList, Block: inner()},
			"set":    {Nesting: schema.NestingSet, Block: inner()},
			"map":    {Nesting: schema.NestingMap, Block: inner()},
		},
	}
}

func inner(name, uid cty.Value) cty.Value {
	return obj(map[string]cty.Value{"name": name, "uid": uid})
}

var innerType = cty.Object(map[string]cty.Type{"name": cty.String, "uid": cty.String})

// blocks builds a value of blockSchema, with absent block types empty.
func blocks(id cty.Value, set map[string]cty.Value) cty.Value {
	attrs := map[string]cty.Value{
		"id":     id,
		"single": cty.NullVal(innerType),
		"group":  inner(nullS, nullS),
		"list":   cty.ListValEmpty(innerType),
		"set":    cty.SetValEmpty(innerType),
		"map":    cty.MapValEmpty(innerType),
	}
	for k, v := range set {
		attrs[k] = v
	}
	return obj(attrs)
}

func TestProposedNewNestedBlocks(t *testing.T) {
	sch := blockSchema()
	tests := map[string]struct {
		prior, config, want cty.Value
	}{
		"single and group blocks keep their computed attributes": {
			prior: blocks(str("i"), map[string]cty.Value{
				"single": inner(str("a"), str("u-a")),
				"group":  inner(str("g"), str("u-g")),
			}),
			config: blocks(nullS, map[string]cty.Value{
				"single": inner(str("a2"), nullS),
				"group":  inner(str("g"), nullS),
			}),
			want: blocks(str("i"), map[string]cty.Value{
				"single": inner(str("a2"), str("u-a")),
				"group":  inner(str("g"), str("u-g")),
			}),
		},
		"a removed single block is absent": {
			prior:  blocks(str("i"), map[string]cty.Value{"single": inner(str("a"), str("u-a"))}),
			config: blocks(nullS, nil),
			want:   blocks(str("i"), nil),
		},
		"list blocks pair by index; a new block takes the configuration": {
			prior: blocks(str("i"), map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(str("a"), str("u-a"))}),
			}),
			config: blocks(nullS, map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(str("b"), nullS), inner(str("c"), nullS)}),
			}),
			want: blocks(str("i"), map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(str("b"), str("u-a")), inner(str("c"), nullS)}),
			}),
		},
		"map blocks pair by key": {
			prior: blocks(str("i"), map[string]cty.Value{
				"map": cty.MapVal(map[string]cty.Value{"x": inner(str("a"), str("u-x")), "gone": inner(str("z"), str("u-z"))}),
			}),
			config: blocks(nullS, map[string]cty.Value{
				"map": cty.MapVal(map[string]cty.Value{"x": inner(str("a2"), nullS), "y": inner(str("b"), nullS)}),
			}),
			want: blocks(str("i"), map[string]cty.Value{
				"map": cty.MapVal(map[string]cty.Value{"x": inner(str("a2"), str("u-x")), "y": inner(str("b"), nullS)}),
			}),
		},
		"set blocks pair by non-computed content, whatever the order": {
			prior: blocks(str("i"), map[string]cty.Value{
				"set": cty.SetVal([]cty.Value{inner(str("a"), str("u-a")), inner(str("b"), str("u-b"))}),
			}),
			config: blocks(nullS, map[string]cty.Value{
				"set": cty.SetVal([]cty.Value{inner(str("b"), nullS), inner(str("c"), nullS)}),
			}),
			want: blocks(str("i"), map[string]cty.Value{
				"set": cty.SetVal([]cty.Value{inner(str("b"), str("u-b")), inner(str("c"), nullS)}),
			}),
		},
		"a dynamic block over an unknown for_each stays unknown": {
			prior: blocks(str("i"), map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(str("a"), str("u-a"))}),
				"set":  cty.SetVal([]cty.Value{inner(str("a"), str("u-a"))}),
			}),
			config: blocks(nullS, map[string]cty.Value{
				"list": cty.UnknownVal(cty.List(innerType)),
				"set":  cty.UnknownVal(cty.Set(innerType)),
			}),
			want: blocks(str("i"), map[string]cty.Value{
				"list": cty.UnknownVal(cty.List(innerType)),
				"set":  cty.UnknownVal(cty.Set(innerType)),
			}),
		},
		"a block with an unknown configured attribute keeps its computed one": {
			prior: blocks(str("i"), map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(str("a"), str("u-a"))}),
			}),
			config: blocks(nullS, map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(unkS, nullS)}),
			}),
			want: blocks(str("i"), map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(unkS, str("u-a"))}),
			}),
		},
		"create: nested blocks come from the configuration": {
			prior: cty.NullVal(sch.ImpliedType()),
			config: blocks(nullS, map[string]cty.Value{
				"single": inner(str("s"), nullS),
				"set":    cty.SetVal([]cty.Value{inner(str("a"), nullS)}),
			}),
			want: blocks(nullS, map[string]cty.Value{
				"single": inner(str("s"), nullS),
				"set":    cty.SetVal([]cty.Value{inner(str("a"), nullS)}),
			}),
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			got := ProposedNew(sch, test.prior, test.config)
			if !got.RawEquals(test.want) {
				t.Errorf("wrong proposed new state\ngot:  %#v\nwant: %#v", got, test.want)
			}
		})
	}
}

// nestedSchema has a nested attribute type of every nesting mode.
func nestedSchema(optionalComputed bool) *schema.Block {
	object := func(n schema.Nesting) *schema.Object {
		return &schema.Object{Nesting: n, Attributes: map[string]*schema.Attribute{
			"name": {Type: cty.String, Optional: true},
			"uid":  {Type: cty.String, Computed: true},
		}}
	}
	attr := func(n schema.Nesting) *schema.Attribute {
		return &schema.Attribute{NestedType: object(n), Optional: true, Computed: optionalComputed}
	}
	return &schema.Block{Attributes: map[string]*schema.Attribute{
		"single": attr(schema.NestingSingle),
		"list":   attr(schema.NestingList),
		"set":    attr(schema.NestingSet),
		"map":    attr(schema.NestingMap),
	}}
}

func nested(set map[string]cty.Value) cty.Value {
	attrs := map[string]cty.Value{
		"single": cty.NullVal(innerType),
		"list":   cty.NullVal(cty.List(innerType)),
		"set":    cty.NullVal(cty.Set(innerType)),
		"map":    cty.NullVal(cty.Map(innerType)),
	}
	for k, v := range set {
		attrs[k] = v
	}
	return obj(attrs)
}

func TestProposedNewNestedAttributes(t *testing.T) {
	tests := map[string]struct {
		optionalComputed    bool
		prior, config, want cty.Value
	}{
		"nested objects keep computed attributes at every nesting": {
			prior: nested(map[string]cty.Value{
				"single": inner(str("a"), str("u-a")),
				"list":   cty.ListVal([]cty.Value{inner(str("l"), str("u-l"))}),
				"set":    cty.SetVal([]cty.Value{inner(str("s"), str("u-s")), inner(str("t"), str("u-t"))}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m"), str("u-m"))}),
			}),
			config: nested(map[string]cty.Value{
				"single": inner(str("a2"), nullS),
				"list":   cty.ListVal([]cty.Value{inner(str("l2"), nullS)}),
				"set":    cty.SetVal([]cty.Value{inner(str("t"), nullS)}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m2"), nullS)}),
			}),
			want: nested(map[string]cty.Value{
				"single": inner(str("a2"), str("u-a")),
				"list":   cty.ListVal([]cty.Value{inner(str("l2"), str("u-l"))}),
				"set":    cty.SetVal([]cty.Value{inner(str("t"), str("u-t"))}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m2"), str("u-m"))}),
			}),
		},
		"an optional nested attribute removed from configuration is null": {
			prior:  nested(map[string]cty.Value{"single": inner(str("a"), str("u-a"))}),
			config: nested(nil),
			want:   nested(nil),
		},
		"optional+computed, left null, keeps a prior the provider computed": {
			optionalComputed: true,
			prior:            nested(map[string]cty.Value{"single": inner(nullS, str("u-a"))}),
			config:           nested(nil),
			want:             nested(map[string]cty.Value{"single": inner(nullS, str("u-a"))}),
		},
		"optional+computed, left null, drops a prior the user had configured": {
			optionalComputed: true,
			prior: nested(map[string]cty.Value{
				"single": inner(str("a"), str("u-a")),
				"list":   cty.ListVal([]cty.Value{inner(str("l"), str("u-l"))}),
			}),
			config: nested(nil),
			want:   nested(nil),
		},
		"a wholly unknown nested attribute is proposed unknown": {
			prior:  nested(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("l"), str("u-l"))})}),
			config: nested(map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType)).RefineNotNull()}),
			want:   nested(map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType)).RefineNotNull()}),
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			got := ProposedNew(nestedSchema(test.optionalComputed), test.prior, test.config)
			if !got.RawEquals(test.want) {
				t.Errorf("wrong proposed new state\ngot:  %#v\nwant: %#v", got, test.want)
			}
		})
	}
}

func TestProposedNewDynamicallyTypedBlocks(t *testing.T) {
	// A list or map of blocks holding a dynamically-typed attribute is a
	// tuple or an object, whose elements may differ in type.
	sch := &schema.Block{BlockTypes: map[string]*schema.NestedBlock{
		"list": {Nesting: schema.NestingList, Block: schema.Block{Attributes: map[string]*schema.Attribute{
			"value": {Type: cty.DynamicPseudoType, Optional: true},
			"uid":   {Type: cty.String, Computed: true},
		}}},
		"map": {Nesting: schema.NestingMap, Block: schema.Block{Attributes: map[string]*schema.Attribute{
			"value": {Type: cty.DynamicPseudoType, Optional: true},
			"uid":   {Type: cty.String, Computed: true},
		}}},
	}}
	elem := func(v, uid cty.Value) cty.Value { return obj(map[string]cty.Value{"value": v, "uid": uid}) }
	prior := obj(map[string]cty.Value{
		"list": cty.TupleVal([]cty.Value{elem(str("a"), str("u0")), elem(num(1), str("u1"))}),
		"map":  cty.ObjectVal(map[string]cty.Value{"k": elem(cty.True, str("uk"))}),
	})
	config := obj(map[string]cty.Value{
		"list": cty.TupleVal([]cty.Value{elem(str("b"), nullS), elem(num(2), nullS)}),
		"map":  cty.ObjectVal(map[string]cty.Value{"k": elem(cty.False, nullS), "new": elem(str("n"), nullS)}),
	})
	want := obj(map[string]cty.Value{
		"list": cty.TupleVal([]cty.Value{elem(str("b"), str("u0")), elem(num(2), str("u1"))}),
		"map":  cty.ObjectVal(map[string]cty.Value{"k": elem(cty.False, str("uk")), "new": elem(str("n"), nullS)}),
	})
	if got := ProposedNew(sch, prior, config); !got.RawEquals(want) {
		t.Errorf("wrong proposed new state\ngot:  %#v\nwant: %#v", got, want)
	}
}

func TestProposedNewSetMatchingIgnoresComputedAndNested(t *testing.T) {
	// Set elements with nested blocks of their own are matched on those
	// too; an element whose nested block changed is a new element.
	sch := &schema.Block{BlockTypes: map[string]*schema.NestedBlock{
		"rule": {Nesting: schema.NestingSet, Block: schema.Block{
			Attributes: map[string]*schema.Attribute{
				"port": {Type: cty.Number, Required: true},
				"uid":  {Type: cty.String, Computed: true},
			},
			BlockTypes: map[string]*schema.NestedBlock{
				"cidr": {Nesting: schema.NestingList, Block: schema.Block{Attributes: map[string]*schema.Attribute{
					"block": {Type: cty.String, Required: true},
				}}},
			},
		}},
	}}
	cidrType := cty.Object(map[string]cty.Type{"block": cty.String})
	rule := func(port int64, uid cty.Value, cidrs ...string) cty.Value {
		list := cty.ListValEmpty(cidrType)
		if len(cidrs) > 0 {
			vals := make([]cty.Value, len(cidrs))
			for i, c := range cidrs {
				vals[i] = obj(map[string]cty.Value{"block": str(c)})
			}
			list = cty.ListVal(vals)
		}
		return obj(map[string]cty.Value{"port": num(port), "uid": uid, "cidr": list})
	}
	prior := obj(map[string]cty.Value{"rule": cty.SetVal([]cty.Value{
		rule(80, str("u80"), "10.0.0.0/8"),
		rule(443, str("u443"), "10.0.0.0/8"),
	})})
	config := obj(map[string]cty.Value{"rule": cty.SetVal([]cty.Value{
		rule(80, nullS, "10.0.0.0/8"),
		rule(443, nullS, "192.168.0.0/16"),
	})})
	want := obj(map[string]cty.Value{"rule": cty.SetVal([]cty.Value{
		rule(80, str("u80"), "10.0.0.0/8"),
		rule(443, nullS, "192.168.0.0/16"),
	})})
	if got := ProposedNew(sch, prior, config); !got.RawEquals(want) {
		t.Errorf("wrong proposed new state\ngot:  %#v\nwant: %#v", got, want)
	}
}

func TestProposedNewKeepsSensitiveMarks(t *testing.T) {
	sch := &schema.Block{Attributes: map[string]*schema.Attribute{
		"password": {Type: cty.String, Optional: true},
		"token":    {Type: cty.String, Computed: true},
	}}
	prior := obj(map[string]cty.Value{"password": str("old"), "token": str("t").Mark("sensitive")})
	config := obj(map[string]cty.Value{"password": str("new").Mark("sensitive"), "token": nullS})
	got := ProposedNew(sch, prior, config)
	want := obj(map[string]cty.Value{"password": str("new").Mark("sensitive"), "token": str("t").Mark("sensitive")})
	if !got.RawEquals(want) {
		t.Errorf("wrong proposed new state\ngot:  %#v\nwant: %#v", got, want)
	}
}

func TestProposedNewNullConfigAndPrior(t *testing.T) {
	sch := blockSchema()
	null := cty.NullVal(sch.ImpliedType())
	if got := ProposedNew(sch, null, null); !got.RawEquals(null) {
		t.Errorf("null prior and config proposed %#v, want null", got)
	}
	prior := blocks(str("i"), nil)
	if got := ProposedNew(sch, prior, null); !got.RawEquals(prior) {
		t.Errorf("null config proposed %#v, want the prior", got)
	}
}

func TestPlannedDataResourceObject(t *testing.T) {
	sch := &schema.Block{
		Attributes: map[string]*schema.Attribute{
			"filter": {Type: cty.String, Required: true},
			"limit":  {Type: cty.Number, Optional: true},
			"region": {Type: cty.String, Optional: true, Computed: true},
			"id":     {Type: cty.String, Computed: true},
		},
		BlockTypes: map[string]*schema.NestedBlock{
			"tag": {Nesting: schema.NestingList, Block: schema.Block{Attributes: map[string]*schema.Attribute{
				"key":   {Type: cty.String, Required: true},
				"value": {Type: cty.String, Computed: true},
			}}},
		},
	}
	config := obj(map[string]cty.Value{
		"filter": str("name=web"), "limit": nullN, "region": str("eu"), "id": nullS,
		"tag": cty.ListVal([]cty.Value{obj(map[string]cty.Value{"key": str("env"), "value": nullS})}),
	})
	want := obj(map[string]cty.Value{
		"filter": str("name=web"), "limit": nullN, "region": str("eu"), "id": unkS,
		"tag": cty.ListVal([]cty.Value{obj(map[string]cty.Value{"key": str("env"), "value": unkS})}),
	})
	got := PlannedDataResourceObject(sch, config)
	if !got.RawEquals(want) {
		t.Errorf("wrong planned data object\ngot:  %#v\nwant: %#v", got, want)
	}
}
