package moduletest

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// The generated strings are OpenTofu's for the same seed: a test that
// compares a mocked value with a string OpenTofu made up passes here too.
func TestComposerMakesOpenTofusValues(t *testing.T) {
	str := func(computed, optional bool) *schema.Attribute {
		return &schema.Attribute{Type: cty.String, Computed: computed, Optional: optional, Required: !computed && !optional}
	}
	block := &schema.Block{
		Attributes: map[string]*schema.Attribute{
			"required-only":     str(false, false),
			"optional":          str(false, true),
			"optional-computed": str(true, true),
			"computed-only":     str(true, false),
			"configured":        str(true, true),
			"given":             str(true, true),
			"number":            {Type: cty.Number, Computed: true},
			"flag":              {Type: cty.Bool, Computed: true},
			"list":              {Type: cty.List(cty.String), Computed: true},
			"object":            {Type: cty.Object(map[string]cty.Type{"a": cty.String, "n": cty.Number}), Computed: true},
		},
		BlockTypes: map[string]*schema.NestedBlock{
			"nested": {Nesting: schema.NestingList, Block: schema.Block{Attributes: map[string]*schema.Attribute{"x": str(true, false)}}},
			"absent": {Nesting: schema.NestingSet, Block: schema.Block{Attributes: map[string]*schema.Attribute{"x": str(true, false)}}},
		},
	}
	cfg := cty.ObjectVal(map[string]cty.Value{
		"required-only": cty.StringVal("required"),
		"configured":    cty.StringVal("from config"),
		"nested":        cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.NullVal(cty.String)})}),
	})
	got, problems := newSeededComposer(42).compose(block, cfg, map[string]cty.Value{"given": cty.StringVal("from defaults")})
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	want := map[string]cty.Value{
		"required-only":     cty.StringVal("required"),
		"optional":          cty.NullVal(cty.String),
		"computed-only":     cty.StringVal("l3INvNSQT"),
		"configured":        cty.StringVal("from config"),
		"flag":              cty.False,
		"given":             cty.StringVal("from defaults"),
		"list":              cty.ListValEmpty(cty.String),
		"number":            cty.Zero,
		"object":            cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("6zQu0"), "n": cty.Zero}),
		"optional-computed": cty.StringVal("xNmGyAVmNkB4"),
		"absent":            cty.SetValEmpty(cty.Object(map[string]cty.Type{"x": cty.String})),
		"nested":            cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("ionwj3qrsh4xyC9")})}),
	}
	for name, w := range want {
		if g := got.GetAttr(name); !g.RawEquals(w) {
			t.Errorf("%s = %#v, want %#v", name, g, w)
		}
	}
}

func TestComposerRefusesWhatCannotBeOverridden(t *testing.T) {
	block := &schema.Block{Attributes: map[string]*schema.Attribute{
		"set":     {Type: cty.String, Optional: true, Computed: true},
		"plain":   {Type: cty.String, Optional: true},
		"counted": {Type: cty.Number, Computed: true},
		"dynamic": {Type: cty.DynamicPseudoType, Computed: true},
	}}
	cfg := cty.ObjectVal(map[string]cty.Value{"set": cty.StringVal("configured")})
	given := map[string]cty.Value{
		"set":     cty.StringVal("x"),
		"plain":   cty.StringVal("x"),
		"counted": cty.StringVal("not a number"),
		"unknown": cty.True,
	}
	_, problems := newSeededComposer(1).compose(block, cfg, given)
	var summaries []string
	for _, p := range problems {
		summaries = append(summaries, p.summary)
	}
	want := []string{
		"Invalid mock/override field `counted`",
		"Failed to generate mock value",
		"Non-computed field `plain` is not allowed to be overridden",
		"Invalid mock/override field `set`",
		"Invalid override for block field `unknown`",
	}
	if len(summaries) != len(want) {
		t.Fatalf("problems %q, want %q", summaries, want)
	}
	for i := range want {
		if summaries[i] != want[i] {
			t.Errorf("problem %d: %q, want %q", i, summaries[i], want[i])
		}
	}
}
