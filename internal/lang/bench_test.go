package lang

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// instanceData is the per-instance view an engine gives each expanded
// instance: shared module data plus that instance's count.index or each.*.
type instanceData struct {
	*staticData
	count cty.Value
	each  [2]cty.Value
}

func (d *instanceData) GetCountAttr(a addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.count, nil
}

func (d *instanceData) GetForEachAttr(a addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if a.Name == "key" {
		return d.each[0], nil
	}
	return d.each[1], nil
}

const instanceBody = `
name  = "${local.prefix}-${var.name}-${count.index}"
zone  = var.zones[count.index % length(var.zones)]
tags  = merge({ Name = "web-${count.index}" }, { env = local.prefix })
`

var instanceSpec = &hcldec.ObjectSpec{
	"name": &hcldec.AttrSpec{Name: "name", Type: cty.String},
	"zone": &hcldec.AttrSpec{Name: "zone", Type: cty.String},
	"tags": &hcldec.AttrSpec{Name: "tags", Type: cty.Map(cty.String)},
}

// BenchmarkCountExpansion evaluates a resource body for each of 10,000
// count instances, as a plan of `count = 10000` does.
func BenchmarkCountExpansion(b *testing.B) {
	shared := exampleData()
	block := PrepareBlock(parseBody(b, instanceBody), instanceSpec)
	const instances = 10000
	module := &Scope{Data: shared}
	b.ReportAllocs()
	for b.Loop() {
		for i := range instances {
			scope := module.WithData(&instanceData{staticData: shared, count: cty.NumberIntVal(int64(i))}, nil)
			if _, diags := scope.EvalPreparedBlock(block); diags.HasErrors() {
				b.Fatal(diags.Error())
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*instances), "ns/instance")
}

// BenchmarkForEachExpansion evaluates for_each over a 10,000-element map:
// the for_each expression once, then the body once per element.
func BenchmarkForEachExpansion(b *testing.B) {
	shared := exampleData()
	elems := make(map[string]cty.Value, 10000)
	for i := range 10000 {
		elems[fmt.Sprintf("k%05d", i)] = cty.StringVal(fmt.Sprintf("v%d", i))
	}
	shared.locals = map[string]cty.Value{"prefix": cty.StringVal("prod"), "items": cty.MapVal(elems)}
	forEachExpr := parseExpr(b, `{ for k, v in local.items : k => upper(v) }`)
	block := PrepareBlock(parseBody(b, "name = \"${each.key}-${each.value}\"\nzone = var.zones[0]\ntags = { item = each.key }\n"), instanceSpec)
	module := &Scope{Data: shared}
	b.ReportAllocs()
	for b.Loop() {
		forEach, diags := module.EvalExpr(forEachExpr, cty.Map(cty.String))
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
		for it := forEach.ElementIterator(); it.Next(); {
			key, val := it.Element()
			scope := module.WithData(&instanceData{staticData: shared, each: [2]cty.Value{key, val}}, nil)
			if _, diags := scope.EvalPreparedBlock(block); diags.HasErrors() {
				b.Fatal(diags.Error())
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10000), "ns/instance")
}
