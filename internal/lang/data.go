package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// Data is the source of the values references resolve to. The engine
// implements it over its graph walk; the console over the configuration
// alone. Each method gets the range of the reference so that a diagnostic
// ("no variable named ...", "resource not yet created") can point at it.
//
// Returned values may be unknown or marked sensitive; the scope passes them
// on as they are.
type Data interface {
	// GetInputVariable returns var.NAME, converted to its declared type.
	GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetLocalValue returns local.NAME.
	GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetModule returns the whole value of a module call: an object of its
	// outputs, or a tuple / object of such objects when it uses count or
	// for_each.
	GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetResource returns the whole value of a resource: one object, or a
	// tuple (count) / object (for_each) of instance objects.
	GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetCountAttr returns count.index in a counted block.
	GetCountAttr(addr addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetForEachAttr returns each.key or each.value in a for_each block.
	GetForEachAttr(addr addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetPathAttr returns path.module, path.root or path.cwd.
	GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics)
	// GetTerraformAttr returns terraform.workspace (also written tofu.workspace).
	GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics)
}
