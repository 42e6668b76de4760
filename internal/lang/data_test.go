package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// staticData answers references from fixed maps, the way the console
// answers them from configuration alone; a missing entry is the same
// "undeclared" diagnostic a user would see.
type staticData struct {
	variables map[string]cty.Value
	locals    map[string]cty.Value
	modules   map[string]cty.Value
	resources map[string]cty.Value // keyed by addrs.Resource.String()
	count     map[string]cty.Value
	each      map[string]cty.Value
	path      map[string]cty.Value
	workspace string
}

func undeclared(what string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Reference to undeclared " + what,
		Detail:   fmt.Sprintf("No %s is declared with this name.", what),
		Subject:  rng.Ptr(),
	}}
}

func lookupOr(m map[string]cty.Value, key, what string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if v, ok := m[key]; ok {
		return v, nil
	}
	return cty.DynamicVal, undeclared(what, rng)
}

func (d *staticData) GetInputVariable(a addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return lookupOr(d.variables, a.Name, "input variable", rng)
}
func (d *staticData) GetLocalValue(a addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return lookupOr(d.locals, a.Name, "local value", rng)
}
func (d *staticData) GetModule(a addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return lookupOr(d.modules, a.Name, "module", rng)
}
func (d *staticData) GetResource(a addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return lookupOr(d.resources, a.String(), "resource", rng)
}
func (d *staticData) GetCountAttr(a addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return lookupOr(d.count, a.Name, "count attribute", rng)
}
func (d *staticData) GetForEachAttr(a addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return lookupOr(d.each, a.Name, "each attribute", rng)
}
func (d *staticData) GetPathAttr(a addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return lookupOr(d.path, a.Name, "path attribute", rng)
}
func (d *staticData) GetTerraformAttr(a addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if a.Name == "workspace" {
		return cty.StringVal(d.workspace), nil
	}
	return cty.DynamicVal, undeclared("terraform attribute", rng)
}
