package engine

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
)

// evalData is lang.Data for one place in the configuration: a module
// instance and, inside a counted or for_each block, one repetition of it.
// Values come from the walk; one not worked out yet is unknown.
type evalData struct {
	w      *walker
	module *config.Config
	inst   addrs.ModuleInstance
	rep    repetition
}

var _ lang.Data = (*evalData)(nil)

// scope returns an evaluation scope for one place in the configuration,
// sharing the walk's function table.
func (w *walker) scope(module *config.Config, inst addrs.ModuleInstance, rep repetition, self addrs.Referenceable) *lang.Scope {
	return w.baseScope.WithData(&evalData{w: w, module: module, inst: inst, rep: rep}, self)
}

func (d *evalData) GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, ok := d.w.values.get(d.w.values.variables, namedKey(d.inst, addr.Name)); ok {
		return val, nil
	}
	if _, declared := d.module.Module.Variables[addr.Name]; !declared {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError, Summary: "Reference to undeclared input variable",
			Detail: fmt.Sprintf("No variable %q is declared in this module; add a variable block for it.", addr.Name), Subject: rng.Ptr(),
		}}
	}
	return cty.DynamicVal, nil
}

func (d *evalData) GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, ok := d.w.values.get(d.w.values.locals, namedKey(d.inst, addr.Name)); ok {
		return val, nil
	}
	return cty.DynamicVal, nil
}

func (d *evalData) GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	child := d.module.Children[addr.Name]
	exp := d.w.values.callExpansion(d.inst, addr.Name)
	if child == nil || exp == nil || exp.unknown {
		return cty.DynamicVal, nil
	}
	remote := child.IsRemoteModule()
	outputsOf := func(key addrs.InstanceKey) (cty.Value, bool) {
		inst := d.inst.Child(addr.Name, key)
		attrs := make(map[string]cty.Value, len(child.Module.Outputs))
		for name, output := range child.Module.Outputs {
			val, ok := d.w.values.get(d.w.values.outputs, namedKey(inst, name))
			if !ok {
				val = cty.DynamicVal
			}
			if output.DeprecatedMessage != "" {
				// What reads it is warned, as OpenTofu warns (see lang).
				val = marks.Deprecated(val, marks.Deprecation{By: addr.String() + "." + name, Message: output.DeprecatedMessage, FromRemoteModule: remote})
			}
			attrs[name] = val
		}
		return cty.ObjectVal(attrs), true
	}
	return collect(exp, outputsOf), nil
}

func (d *evalData) GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	val, ds := d.resourceValue(addr)
	if addr.Mode == addrs.EphemeralResourceMode {
		// Unknown or not, an ephemeral resource's value may only go where
		// ephemeral values may: marking it before its instances are known
		// lets a plan refuse what the apply would.
		val = val.Mark(marks.Ephemeral)
	}
	return val, ds
}

func (d *evalData) resourceValue(addr addrs.Resource) (cty.Value, hcl.Diagnostics) {
	abs := addrs.AbsResource{Module: d.inst, Resource: addr}
	exp := d.w.values.resourceExpansion(abs)
	if exp == nil || exp.unknown {
		return cty.DynamicVal, nil
	}
	return d.w.values.resourceValue(abs, func() cty.Value {
		return collect(exp, func(key addrs.InstanceKey) (cty.Value, bool) {
			name := abs.Instance(key).String()
			val, ok := d.w.values.instance(name)
			if d.w.values.isAbsent(name) {
				return val, false
			}
			if !ok {
				return cty.DynamicVal, true
			}
			return val, true
		})
	}), nil
}

// collect builds the value of a whole expanded object: the single
// instance's value, a tuple for count or an object for for_each. Instances
// valueOf reports absent (left out of a plan by -target or -exclude, and
// not in state) are left out as OpenTofu leaves them: an object has no
// attribute for them, a tuple ends at the last one present and holds the
// value valueOf gives (unknown) for each one before it, a single instance
// is unknown.
func collect(exp *expansion, valueOf func(addrs.InstanceKey) (cty.Value, bool)) cty.Value {
	switch exp.mode {
	case expandCount:
		elems := make([]cty.Value, len(exp.keys))
		last := -1
		for i, key := range exp.keys {
			var present bool
			if elems[i], present = valueOf(key); present {
				last = i
			}
		}
		return cty.TupleVal(elems[:last+1])
	case expandForEach:
		attrs := make(map[string]cty.Value, len(exp.keys))
		for _, key := range exp.keys {
			if val, ok := valueOf(key); ok {
				attrs[string(key.(addrs.StringKey))] = val
			}
		}
		return cty.ObjectVal(attrs)
	default:
		if len(exp.keys) == 0 {
			// A block disabled by OpenTofu's `enabled`: null.
			return cty.NullVal(cty.DynamicPseudoType)
		}
		if val, ok := valueOf(addrs.NoKey); ok {
			return val
		}
		return cty.DynamicVal
	}
}

func (d *evalData) GetCountAttr(addr addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if addr.Name == "index" && d.rep.countIndex != cty.NilVal {
		return d.rep.countIndex, nil
	}
	return cty.UnknownVal(cty.Number), hcl.Diagnostics{{
		Severity: hcl.DiagError, Summary: "Reference to count in a block without count",
		Detail: "count.index is only available in blocks that set count.", Subject: rng.Ptr(),
	}}
}

func (d *evalData) GetForEachAttr(addr addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch {
	case d.rep.eachKey == cty.NilVal:
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError, Summary: "Reference to each in a block without for_each",
			Detail: "each.key and each.value are only available in blocks that set for_each.", Subject: rng.Ptr(),
		}}
	case addr.Name == "key":
		return d.rep.eachKey, nil
	case addr.Name == "value":
		return d.rep.eachValue, nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError, Summary: "Invalid each attribute",
		Detail: fmt.Sprintf("each has only key and value, not %q.", addr.Name), Subject: rng.Ptr(),
	}}
}

func (d *evalData) GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch addr.Name {
	case "module":
		return cty.StringVal(relativeToCwd(d.module.Module.SourceDir)), nil
	case "root":
		return cty.StringVal(relativeToCwd(d.module.Root.Module.SourceDir)), nil
	case "cwd":
		wd, err := d.w.e.opts.OriginalWorkingDir, error(nil)
		if wd == "" {
			wd, err = os.Getwd()
		}
		if err == nil {
			wd, err = filepath.Abs(wd)
		}
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to get working directory",
				Detail: fmt.Sprintf("The value for path.cwd cannot be determined due to a system error: %s", err), Subject: rng.Ptr()}}
		}
		return cty.StringVal(filepath.ToSlash(wd)), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError, Summary: "Invalid path attribute",
		Detail: fmt.Sprintf("path has module, root and cwd, not %q.", addr.Name), Subject: rng.Ptr(),
	}}
}

// relativeToCwd gives module paths as Terraform does: relative to the
// working directory when the module is below it.
func relativeToCwd(dir string) string {
	if dir == "" {
		return "."
	}
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(dir) {
		if rel, err := filepath.Rel(wd, dir); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(dir)
}

func (d *evalData) GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch addr.Name {
	case "workspace":
		return cty.StringVal(d.w.e.opts.Workspace), nil
	case "applying":
		return cty.BoolVal(d.w.e.opts.Applying).Mark(marks.Ephemeral), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError, Summary: "Invalid terraform attribute",
		Detail: fmt.Sprintf("terraform has only workspace and applying, not %q.", addr.Name), Subject: rng.Ptr(),
	}}
}
