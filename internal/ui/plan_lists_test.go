package ui

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// TestListDiffsAsOpenTofu renders changes to lists, lists of lists and the
// arrays of JSON strings as OpenTofu does (internal/command/jsonformat:
// differ/list.go and jsondiff/diff.go pair a changed element with the one
// that took its place only when both are objects, or multi-line strings
// sharing a line; collections/slice.go walks the longest common
// subsequence). Terraform 1.11 differs: it shows every changed element as
// "~ before -> after".
func TestListDiffsAsOpenTofu(t *testing.T) {
	strs := func(vs ...string) cty.Value {
		out := make([]cty.Value, len(vs))
		for i, v := range vs {
			out[i] = cty.StringVal(v)
		}
		return cty.ListVal(out)
	}
	named := func(names ...string) cty.Value {
		out := make([]cty.Value, len(names))
		for i, name := range names {
			out[i] = cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)})
		}
		return cty.ListVal(out)
	}
	listOf := func(ty cty.Type) *schema.Attribute { return &schema.Attribute{Type: cty.List(ty), Optional: true} }
	for _, tc := range []struct {
		name          string
		attr          *schema.Attribute
		before, after cty.Value
		want          string
	}{
		{
			name: "changed string in a list is removed and added",
			attr: listOf(cty.String), before: strs("a", "b", "c"), after: strs("a", "x", "c"),
			want: `[
        "a",
      - "b",
      + "x",
        "c",
    ]`,
		},
		{
			name:   "changed inner list of a list of lists is removed and added",
			attr:   listOf(cty.List(cty.String)),
			before: cty.ListVal([]cty.Value{strs("a", "b"), strs("c")}),
			after:  cty.ListVal([]cty.Value{strs("a", "x"), strs("c")}),
			want: `[
      - [
          - "a",
          - "b",
        ],
      + [
          + "a",
          + "x",
        ],
        [
            "c",
        ],
    ]`,
		},
		{
			name: "changed object in a list changes in place",
			attr: listOf(cty.Object(map[string]cty.Type{"name": cty.String})), before: named("a", "b"), after: named("a", "x"),
			want: `[
        {
            name = "a"
        },
      ~ {
          ~ name = "b" -> "x"
        },
    ]`,
		},
		{
			name: "multi-line strings sharing a line are diffed line by line",
			attr: listOf(cty.String), before: strs("one\ntwo\n"), after: strs("one\nthree\n"),
			want: `[
      ~ <<-EOT
            one
          - two
          + three
        EOT,
    ]`,
		},
		{
			name:   "changed element of an array in a JSON string is removed and added",
			attr:   &schema.Attribute{Type: cty.String, Optional: true},
			before: cty.StringVal(`{"list":["a","b"],"grid":[["a"],["b"]]}`),
			after:  cty.StringVal(`{"list":["a","c"],"grid":[["a"],["c"]]}`),
			want: `jsonencode(
      ~ {
          ~ grid = [
                [
                    "a",
                ],
              - [
                  - "b",
                ],
              + [
                  + "c",
                ],
            ]
          ~ list = [
                "a",
              - "b",
              + "c",
            ]
        }
    )`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := diffAttribute(change_(tc.before, tc.after, &diffContext{}), tc.attr)
			if got := node.render(0, renderOpts{}); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
