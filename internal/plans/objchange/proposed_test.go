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
