package command

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/lang/marks"
)

// This file answers references during validation, with unknown values
// for whatever is only known during a run.

// validationData answers references inside one block of the module being
// validated.
type validationData struct {
	module  *moduleValidator
	counted bool
	forEach bool
}

func (d *validationData) GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, ok := d.module.variables[addr.Name]; ok {
		return val, nil
	}
	return cty.DynamicVal, undeclaredDiag("input variable", addr.Name, fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", addr.Name, addr.Name), rng)
}

func (d *validationData) GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.module.localValue(addr.Name, rng)
}

func (d *validationData) GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.module.cfg.Module.ModuleCalls[addr.Name]; ok {
		return cty.DynamicVal, nil
	}
	return cty.DynamicVal, undeclaredDiag("module", addr.Name, fmt.Sprintf("No module call named %q is declared in %s.", addr.Name, d.moduleName()), rng)
}

// GetResource returns an unknown object of the resource type's schema, so
// that references to attributes the type does not have are errors; counted
// and for_each resources are unknown as a whole.
func (d *validationData) GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	val, diags := d.resourceValue(addr, rng)
	if addr.Mode == addrs.EphemeralResourceMode {
		val = val.Mark(marks.Ephemeral)
	}
	return val, diags
}

func (d *validationData) resourceValue(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	r, ok := d.module.cfg.Module.Resources[addr]
	if !ok {
		what := "resource"
		switch addr.Mode {
		case addrs.DataResourceMode:
			what = "data resource"
		case addrs.EphemeralResourceMode:
			what = "ephemeral resource"
		}
		return cty.DynamicVal, undeclaredDiag(what, addr.String(), fmt.Sprintf("A %s %q %q has not been declared in %s.", what, addr.Type, addr.Name, d.moduleName()), rng)
	}
	if r.Count != nil || r.ForEach != nil {
		return cty.DynamicVal, nil
	}
	if block := d.module.resourceSchema(r); block != nil {
		return cty.UnknownVal(block.ImpliedType()), nil
	}
	return cty.DynamicVal, nil
}

func (d *validationData) GetCountAttr(addr addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if d.counted && addr.Name == "index" {
		return cty.UnknownVal(cty.Number), nil
	}
	return (&consoleData{}).GetCountAttr(addr, rng)
}

func (d *validationData) GetForEachAttr(addr addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if d.forEach {
		switch addr.Name {
		case "key":
			return cty.UnknownVal(cty.String), nil
		case "value":
			return cty.DynamicVal, nil
		}
	}
	return (&consoleData{}).GetForEachAttr(addr, rng)
}

func (d *validationData) GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch addr.Name {
	case "module":
		return cty.StringVal(d.module.cfg.Module.SourceDir), nil
	case "root":
		return cty.StringVal(d.module.cfg.Root.Module.SourceDir), nil
	}
	return (&consoleData{}).GetPathAttr(addr, rng)
}

func (d *validationData) GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if addr.Name == "applying" {
		return cty.UnknownVal(cty.Bool).Mark(marks.Ephemeral), nil
	}
	return (&consoleData{}).GetTerraformAttr(addr, rng)
}

func (d *validationData) moduleName() string {
	if d.module.cfg.Path.IsRoot() {
		return "the root module"
	}
	return d.module.cfg.Path.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// inSourceOrder lists a map's values in the order they are written.
func inSourceOrder[K comparable, V any](m map[K]V, declRange func(V) hcl.Range) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return rangeBefore(declRange(out[i]), declRange(out[j])) })
	return out
}

func rangeBefore(a, b hcl.Range) bool {
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	return a.Start.Byte < b.Start.Byte
}
