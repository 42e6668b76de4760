package objchange

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// benchSchema is a resource of typical size: twenty attributes of mixed
// kinds and a set block of ten elements, the shape whose matching costs most.
func benchSchema() (*schema.Block, cty.Value, cty.Value) {
	attrs := map[string]*schema.Attribute{}
	prior := map[string]cty.Value{}
	config := map[string]cty.Value{}
	for i := range 20 {
		name := fmt.Sprintf("attr%d", i)
		switch i % 3 {
		case 0:
			attrs[name] = &schema.Attribute{Type: cty.String, Computed: true}
			prior[name], config[name] = str("computed"), nullS
		case 1:
			attrs[name] = &schema.Attribute{Type: cty.String, Optional: true}
			prior[name], config[name] = str("old"), str("new")
		default:
			attrs[name] = &schema.Attribute{Type: cty.Map(cty.String), Optional: true, Computed: true}
			m := cty.MapVal(map[string]cty.Value{"k": str("v")})
			prior[name], config[name] = m, m
		}
	}
	sch := &schema.Block{Attributes: attrs, BlockTypes: map[string]*schema.NestedBlock{
		"rule": {Nesting: schema.NestingSet, Block: *blockSchema().BlockTypes["set"].Block.NoneRequired()},
	}}
	var priorRules, configRules []cty.Value
	for i := range 10 {
		priorRules = append(priorRules, inner(str(fmt.Sprint(i)), str(fmt.Sprint("u", i))))
		configRules = append(configRules, inner(str(fmt.Sprint(i)), nullS))
	}
	prior["rule"], config["rule"] = cty.SetVal(priorRules), cty.SetVal(configRules)
	return sch, obj(prior), obj(config)
}

func BenchmarkProposedNew(b *testing.B) {
	sch, prior, config := benchSchema()
	b.ReportAllocs()
	for b.Loop() {
		ProposedNew(sch, prior, config)
	}
}

func BenchmarkAssertPlanValid(b *testing.B) {
	sch, prior, config := benchSchema()
	planned := ProposedNew(sch, prior, config)
	b.ReportAllocs()
	for b.Loop() {
		if errs := AssertPlanValid(sch, prior, config, planned); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

func BenchmarkAssertObjectCompatible(b *testing.B) {
	sch, prior, config := benchSchema()
	planned := ProposedNew(sch, prior, config)
	b.ReportAllocs()
	for b.Loop() {
		if errs := AssertObjectCompatible(sch, planned, planned); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
