package objchange

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// valueSchema has one attribute of each kind of plain type.
func valueSchema() *schema.Block {
	return &schema.Block{Attributes: map[string]*schema.Attribute{
		"id":      {Type: cty.String, Computed: true},
		"count":   {Type: cty.Number, Optional: true, Computed: true},
		"tags":    {Type: cty.Map(cty.String), Optional: true},
		"list":    {Type: cty.List(cty.String), Optional: true},
		"set":     {Type: cty.Set(cty.String), Optional: true, Computed: true},
		"any":     {Type: cty.DynamicPseudoType, Optional: true},
		"secret":  {Type: cty.String, Computed: true, Sensitive: true},
		"wo":      {Type: cty.String, Optional: true, WriteOnly: true},
		"complex": {Type: cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number}), Optional: true},
	}}
}

func values(set map[string]cty.Value) cty.Value {
	v := map[string]cty.Value{
		"id": nullS, "count": nullN, "tags": cty.NullVal(strMap), "list": cty.NullVal(cty.List(cty.String)),
		"set": cty.NullVal(cty.Set(cty.String)), "any": cty.NullVal(cty.DynamicPseudoType), "secret": nullS, "wo": nullS,
		"complex": cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number})),
	}
	for k, val := range set {
		v[k] = val
	}
	return obj(v)
}

func TestAssertObjectCompatibleValues(t *testing.T) {
	tests := map[string]struct {
		planned, actual cty.Value
		want            []string
	}{
		"unknowns completed, known values kept": {
			planned: values(map[string]cty.Value{"id": unkS, "count": num(2), "set": cty.UnknownVal(cty.Set(cty.String))}),
			actual:  values(map[string]cty.Value{"id": str("i-1"), "count": num(2), "set": cty.SetVal([]cty.Value{str("x")})}),
		},
		"a known value changed": {
			planned: values(map[string]cty.Value{"count": num(2)}),
			actual:  values(map[string]cty.Value{"count": num(3)}),
			want:    []string{"count: was planned as 2, but the provider returned 3"},
		},
		"a known value became null": {
			planned: values(map[string]cty.Value{"count": num(2)}),
			actual:  values(nil),
			want:    []string{"count: was planned as 2, but the provider returned null"},
		},
		"a planned null got a value": {
			planned: values(nil),
			actual:  values(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"a": str("b")})}),
			want:    []string{`tags: was planned as null, but the provider returned {a = "b"}`},
		},
		"a known value returned unknown": {
			planned: values(map[string]cty.Value{"count": num(2)}),
			actual:  values(map[string]cty.Value{"count": unkN}),
			want:    []string{"count: was planned as 2, but the provider returned (known after apply)"},
		},
		"a map element appeared and one vanished": {
			planned: values(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"a": str("1")})}),
			actual:  values(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"b": str("1")})}),
			want: []string{
				`tags["a"]: was planned, but the provider returned no such element`,
				`tags["b"]: was not planned, but the provider returned it`,
			},
		},
		"a list grew": {
			planned: values(map[string]cty.Value{"list": cty.ListVal([]cty.Value{str("a")})}),
			actual:  values(map[string]cty.Value{"list": cty.ListVal([]cty.Value{str("a"), str("b")})}),
			want:    []string{"list: was planned with 1 elements, but the provider returned 2"},
		},
		"a list element changed": {
			planned: values(map[string]cty.Value{"list": cty.ListVal([]cty.Value{str("a"), unkS})}),
			actual:  values(map[string]cty.Value{"list": cty.ListVal([]cty.Value{str("A"), str("b")})}),
			want:    []string{`list[0]: was planned as "a", but the provider returned "A"`},
		},
		"set unknowns that turn out equal merge": {
			planned: values(map[string]cty.Value{"set": cty.SetVal([]cty.Value{str("a"), unkS})}),
			actual:  values(map[string]cty.Value{"set": cty.SetVal([]cty.Value{str("a")})}),
		},
		"a set lost a known element": {
			planned: values(map[string]cty.Value{"set": cty.SetVal([]cty.Value{str("a"), str("b")})}),
			actual:  values(map[string]cty.Value{"set": cty.SetVal([]cty.Value{str("a")})}),
			want:    []string{`set: planned set element "b" has no counterpart`},
		},
		"a set grew": {
			planned: values(map[string]cty.Value{"set": cty.SetVal([]cty.Value{str("a")})}),
			actual:  values(map[string]cty.Value{"set": cty.SetVal([]cty.Value{str("a"), str("b")})}),
			want:    []string{`set: set element "b" was not planned`, "set: was planned with 1 elements, but the provider returned 2"},
		},
		"an attribute of an object-typed value changed": {
			planned: values(map[string]cty.Value{"complex": obj(map[string]cty.Value{"a": str("x"), "b": unkN})}),
			actual:  values(map[string]cty.Value{"complex": obj(map[string]cty.Value{"a": str("y"), "b": num(1)})}),
			want:    []string{`complex.a: was planned as "x", but the provider returned "y"`},
		},
		"a dynamically-typed value changed type": {
			planned: values(map[string]cty.Value{"any": str("1")}),
			actual:  values(map[string]cty.Value{"any": num(1)}),
			want:    []string{"any: the provider returned a value of the wrong type: string required, but have number"},
		},
		"a dynamically-typed unknown may become anything": {
			planned: values(map[string]cty.Value{"any": cty.DynamicVal}),
			actual:  values(map[string]cty.Value{"any": cty.ListVal([]cty.Value{num(1)})}),
		},
		"a sensitive attribute's values are not shown": {
			planned: values(map[string]cty.Value{"secret": str("hunter2")}),
			actual:  values(map[string]cty.Value{"secret": str("hunter3")}),
			want:    []string{"secret: inconsistent values for a sensitive attribute"},
		},
		"a marked value is not shown": {
			planned: values(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"k": str("v1").Mark("sensitive")})}),
			actual:  values(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"k": str("v2")})}),
			want:    []string{"tags: inconsistent values for a sensitive attribute"},
		},
		"a write-only attribute returned with a value": {
			planned: values(nil),
			actual:  values(map[string]cty.Value{"wo": str("pw")}),
			want:    []string{"wo: the provider returned a value for a write-only attribute"},
		},
		"the object vanished": {
			planned: values(nil),
			actual:  cty.NullVal(valueSchema().ImpliedType()),
			want:    []string{"was planned present, but the provider returned null"},
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			wantErrors(t, AssertObjectCompatible(valueSchema(), test.planned, test.actual), test.want...)
		})
	}
}

func TestAssertObjectCompatibleRefinements(t *testing.T) {
	sch := valueSchema()
	tests := map[string]struct {
		planned, actual cty.Value
		want            []string
	}{
		"a not-null unknown became null": {
			planned: values(map[string]cty.Value{"id": unkS.RefineNotNull()}),
			actual:  values(nil),
			want:    []string{"id: the provider returned null, which the plan's (known after apply, not null) does not allow"},
		},
		"a prefixed unknown completed with the prefix": {
			planned: values(map[string]cty.Value{"id": unkS.Refine().StringPrefix("arn:").NewValue()}),
			actual:  values(map[string]cty.Value{"id": str("arn:aws:1")}),
		},
		"a prefixed unknown completed without the prefix": {
			planned: values(map[string]cty.Value{"id": unkS.Refine().StringPrefix("arn:").NewValue()}),
			actual:  values(map[string]cty.Value{"id": str("i-123")}),
			want:    []string{`id: the provider returned "i-123", which the plan's (known after apply, starting with "arn:") does not allow`},
		},
		"a bounded number outside its bounds": {
			planned: values(map[string]cty.Value{"count": unkN.Refine().NumberRangeInclusive(num(1), num(5)).NewValue()}),
			actual:  values(map[string]cty.Value{"count": num(9)}),
			want:    []string{"count: the provider returned 9, which the plan's (known after apply, >= 1, <= 5) does not allow"},
		},
		"a bounded number inside its bounds": {
			planned: values(map[string]cty.Value{"count": unkN.Refine().NumberRangeInclusive(num(1), num(5)).NewValue()}),
			actual:  values(map[string]cty.Value{"count": num(5)}),
		},
		"a collection longer than its length bound": {
			planned: values(map[string]cty.Value{"set": cty.UnknownVal(cty.Set(cty.String)).Refine().CollectionLengthUpperBound(1).NewValue()}),
			actual:  values(map[string]cty.Value{"set": cty.SetVal([]cty.Value{str("a"), str("b")})}),
			want:    []string{`set: the provider returned toset(["a", "b"]), which the plan's (known after apply, at most 1 elements) does not allow`},
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			wantErrors(t, AssertObjectCompatible(sch, test.planned, test.actual), test.want...)
		})
	}
}

func TestAssertPlannedValueValid(t *testing.T) {
	sch := valueSchema()
	prefixed := func(p string) cty.Value { return unkS.Refine().StringPrefix(p).NewValue() }
	bounded := func(lo, hi int64) cty.Value {
		return unkN.Refine().NumberRangeInclusive(num(lo), num(hi)).NewValue()
	}
	tests := map[string]struct {
		saved, replanned cty.Value
		want             []string
	}{
		"an unknown may stay unknown": {
			saved:     values(map[string]cty.Value{"id": unkS}),
			replanned: values(map[string]cty.Value{"id": unkS}),
		},
		"an unknown may narrow": {
			saved:     values(map[string]cty.Value{"id": prefixed("arn:"), "count": bounded(1, 10)}),
			replanned: values(map[string]cty.Value{"id": prefixed("arn:aws:").RefineNotNull(), "count": bounded(2, 3)}),
		},
		"an unknown may become known": {
			saved:     values(map[string]cty.Value{"id": unkS}),
			replanned: values(map[string]cty.Value{"id": str("i-1")}),
		},
		"a known value must not change": {
			saved:     values(map[string]cty.Value{"count": num(1)}),
			replanned: values(map[string]cty.Value{"count": num(2)}),
			want:      []string{"count: was planned as 1, but the new plan has 2"},
		},
		"a known value must not become unknown": {
			saved:     values(map[string]cty.Value{"count": num(1)}),
			replanned: values(map[string]cty.Value{"count": unkN}),
			want:      []string{"count: was planned as 1, but the new plan has (known after apply)"},
		},
		"an unknown must not lose its not-null promise": {
			saved:     values(map[string]cty.Value{"id": unkS.RefineNotNull()}),
			replanned: values(map[string]cty.Value{"id": unkS}),
			want:      []string{"id: was planned as (known after apply, not null), but the new plan has (known after apply), which no longer promises not null"},
		},
		"an unknown must not lose its prefix": {
			saved:     values(map[string]cty.Value{"id": prefixed("arn:aws:")}),
			replanned: values(map[string]cty.Value{"id": prefixed("arn:")}),
			want:      []string{`which no longer promises starting with "arn:aws:"`},
		},
		"an unknown must not widen its bounds": {
			saved:     values(map[string]cty.Value{"count": bounded(1, 5)}),
			replanned: values(map[string]cty.Value{"count": bounded(0, 6)}),
			want:      []string{"which no longer promises >= 1 and <= 5"},
		},
		"an unknown collection must not widen its length bounds": {
			saved: values(map[string]cty.Value{"set": cty.UnknownVal(cty.Set(cty.String)).Refine().
				CollectionLengthLowerBound(1).CollectionLengthUpperBound(3).NewValue()}),
			replanned: values(map[string]cty.Value{"set": cty.UnknownVal(cty.Set(cty.String))}),
			want:      []string{"which no longer promises at least 1 elements and at most 3 elements"},
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			wantErrors(t, AssertPlannedValueValid(sch, test.saved, test.replanned), test.want...)
		})
	}
}

func TestAssertObjectCompatibleNestedBlocks(t *testing.T) {
	sch := blockSchema()
	placeholder := inner(unkS, unkS)
	tests := map[string]struct {
		planned, actual cty.Value
		want            []string
	}{
		"computed block attributes completed": {
			planned: blocks(unkS, map[string]cty.Value{
				"single": inner(str("s"), unkS),
				"list":   cty.ListVal([]cty.Value{inner(str("l"), unkS)}),
				"set":    cty.SetVal([]cty.Value{inner(str("a"), unkS), inner(str("b"), unkS)}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m"), unkS)}),
			}),
			actual: blocks(str("i"), map[string]cty.Value{
				"single": inner(str("s"), str("1")),
				"list":   cty.ListVal([]cty.Value{inner(str("l"), str("2"))}),
				"set":    cty.SetVal([]cty.Value{inner(str("a"), str("3")), inner(str("b"), str("4"))}),
				"map":    cty.MapVal(map[string]cty.Value{"k": inner(str("m"), str("5"))}),
			}),
		},
		"a configured attribute inside a set block changed": {
			planned: blocks(nullS, map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(str("a"), unkS)})}),
			actual:  blocks(nullS, map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(str("A"), str("1"))})}),
			want: []string{
				`set: planned set element {name = "a", uid = (known after apply)} has no counterpart`,
				`set: set element {name = "A", uid = "1"} was not planned`,
			},
		},
		"a list block's attribute changed": {
			planned: blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("a"), str("u"))})}),
			actual:  blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("a"), str("v"))})}),
			want:    []string{`list[0].uid: was planned as "u", but the provider returned "v"`},
		},
		"a map block vanished": {
			planned: blocks(nullS, map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{"k": inner(str("m"), unkS)})}),
			actual:  blocks(nullS, nil),
			want:    []string{`map["k"]: was planned, but the provider returned no such element`},
		},
		"a single block appeared": {
			planned: blocks(nullS, nil),
			actual:  blocks(nullS, map[string]cty.Value{"single": inner(str("s"), str("u"))}),
			want:    []string{"single: was planned absent, but the provider returned an object"},
		},
		"null and empty block lists mean the same": {
			planned: blocks(nullS, map[string]cty.Value{"list": cty.NullVal(cty.List(innerType))}),
			actual:  blocks(nullS, nil),
		},
		"a placeholder block may expand to any number of blocks": {
			planned: blocks(nullS, map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{placeholder}),
				"set":  cty.SetVal([]cty.Value{placeholder}),
			}),
			actual: blocks(nullS, map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{inner(str("a"), str("1")), inner(str("b"), str("2"))}),
				"set":  cty.SetValEmpty(innerType),
			}),
		},
		"a wholly unknown block collection may become any blocks": {
			planned: blocks(nullS, map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType))}),
			actual:  blocks(nullS, map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("a"), str("1"))})}),
		},
		"an unknown single block may turn out absent": {
			planned: blocks(nullS, map[string]cty.Value{"single": cty.UnknownVal(innerType)}),
			actual:  blocks(nullS, nil),
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			wantErrors(t, AssertObjectCompatible(sch, test.planned, test.actual), test.want...)
		})
	}
}

func TestAssertObjectCompatibleNestedAttributes(t *testing.T) {
	sch := nestedSchema(true)
	tests := map[string]struct {
		planned, actual cty.Value
		want            []string
	}{
		"a wholly unknown nested attribute may become anything": {
			planned: nested(map[string]cty.Value{"list": cty.UnknownVal(cty.List(innerType)), "single": cty.UnknownVal(innerType)}),
			actual:  nested(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("a"), str("1"))})}),
		},
		"a nested attribute inside a list changed": {
			planned: nested(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("a"), unkS)})}),
			actual:  nested(map[string]cty.Value{"list": cty.ListVal([]cty.Value{inner(str("b"), str("1"))})}),
			want:    []string{`list[0].name: was planned as "a", but the provider returned "b"`},
		},
		"a nested map element appeared": {
			planned: nested(map[string]cty.Value{"map": cty.MapValEmpty(innerType)}),
			actual:  nested(map[string]cty.Value{"map": cty.MapVal(map[string]cty.Value{"x": inner(str("b"), str("1"))})}),
			want:    []string{`map["x"]: was not planned, but the provider returned it`},
		},
		"a nested object became null": {
			planned: nested(map[string]cty.Value{"single": inner(str("a"), unkS)}),
			actual:  nested(nil),
			want:    []string{"single: was planned present, but the provider returned null"},
		},
		"a nested set completed": {
			planned: nested(map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(str("a"), unkS), inner(str("b"), unkS)})}),
			actual:  nested(map[string]cty.Value{"set": cty.SetVal([]cty.Value{inner(str("b"), str("2")), inner(str("a"), str("1"))})}),
		},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			wantErrors(t, AssertObjectCompatible(sch, test.planned, test.actual), test.want...)
		})
	}
}

func TestAssertWhollyKnown(t *testing.T) {
	known := values(map[string]cty.Value{"id": str("i"), "secret": str("s").Mark("sensitive")})
	wantErrors(t, AssertWhollyKnown(known))
	partly := values(map[string]cty.Value{"id": unkS, "list": cty.ListVal([]cty.Value{str("a"), unkS})})
	wantErrorsUnordered(t, AssertWhollyKnown(partly), "id: is still unknown after apply", "list[1]: is still unknown after apply")
}
