package validate

import (
	"os"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
)

// This file answers references during validation, with unknown values
// for whatever is only known during a run.

// validationData answers references inside one block of the module being
// validated. References to what is not declared, and uses of count, each
// and self where they are not available, were reported by
// config.ValidateReferences before evaluation; here they are unknown.
type validationData struct {
	module  *moduleValidator
	counted bool
	forEach bool
	// validating is the variable whose validation rules are evaluated,
	// with its value: only they see it (see validateVariables).
	validating *variableUnderValidation
}

type variableUnderValidation struct {
	name  string
	value cty.Value
}

func (d *validationData) GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if v := d.validating; v != nil && v.name == addr.Name {
		return v.value, nil
	}
	if val, ok := d.module.variables[addr.Name]; ok {
		return val, nil
	}
	return cty.DynamicVal, nil
}

func (d *validationData) GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.module.localValue(addr.Name, rng)
}

// GetModule returns, for a call of one instance, an unknown object with
// an attribute for each output the module declares, so that a reference
// to an output it does not have is an error; calls with count or
// for_each, and modules not loaded, are unknown as a whole.
func (d *validationData) GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	call, ok := d.module.cfg.Module.ModuleCalls[addr.Name]
	child := d.module.cfg.Children[addr.Name]
	if !ok || child == nil || call.Count != nil || call.ForEach != nil {
		return cty.DynamicVal, nil
	}
	attrs := make(map[string]cty.Type, len(child.Module.Outputs))
	for name := range child.Module.Outputs {
		attrs[name] = cty.DynamicPseudoType
	}
	return cty.UnknownVal(cty.Object(attrs)), nil
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
		return cty.DynamicVal, nil
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
	return cty.DynamicVal, nil
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
	return cty.DynamicVal, nil
}

func (d *validationData) GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch addr.Name {
	case "module":
		return cty.StringVal(d.module.cfg.Module.SourceDir), nil
	case "root":
		return cty.StringVal(d.module.cfg.Root.Module.SourceDir), nil
	}
	if addr.Name == "cwd" {
		wd, err := os.Getwd()
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to get working directory", Detail: err.Error(), Subject: rng.Ptr()}}
		}
		return cty.StringVal(wd), nil
	}
	return cty.DynamicVal, nil
}

func (d *validationData) GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if addr.Name == "applying" {
		return cty.UnknownVal(cty.Bool).Mark(marks.Ephemeral), nil
	}
	if addr.Name == "workspace" {
		// The workspace is a run's: validation checks for any.
		return cty.UnknownVal(cty.String), nil
	}
	return cty.DynamicVal, nil
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
