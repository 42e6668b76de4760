package validate

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/marks"
)

// During validation, as in OpenTofu's validate walk, an input variable is
// unknown (of its type) wherever it is referred to, except in its own
// validation rules: they see the value the module call gives it — often a
// constant, and so known — or its default when the call does not set it
// (a root module variable is unknown there too). So a constant argument
// that breaks a rule is reported before any plan.

// callArguments are the values a module's calls give their modules'
// variables, by module path and variable name, kept by the caller's
// validator for its children's.
type callArguments struct {
	values map[string]map[string]cty.Value
}

func (a *callArguments) set(module addrs.Module, name string, val cty.Value) {
	key := module.String()
	if a.values[key] == nil {
		a.values[key] = map[string]cty.Value{}
	}
	a.values[key][name] = val
}

// unknownVariable is what a reference to decl gives during validation.
func unknownVariable(decl *config.Variable) cty.Value {
	val := cty.UnknownVal(decl.Type.Type.WithoutOptionalAttributesDeep())
	if decl.Sensitive {
		val = val.Mark(marks.Sensitive)
	}
	if decl.Ephemeral {
		val = val.Mark(marks.Ephemeral)
	}
	return val
}

// validatedValue is the value variable decl of module c has in its own
// validation rules; given is what c's call gives it, if c is a child
// module and the call sets it.
func validatedValue(c *config.Config, decl *config.Variable, given cty.Value, ok bool) cty.Value {
	ty := decl.Type.Type
	val := cty.UnknownVal(ty.WithoutOptionalAttributesDeep())
	switch {
	case c.Parent == nil:
	case ok:
		if decl.Type.Defaults != nil && !given.IsNull() {
			given = decl.Type.Defaults.Apply(given)
		}
		if converted, err := convert.Convert(given, ty); err == nil && !(converted.IsNull() && !decl.Nullable) {
			val = converted
		}
	case decl.Default != nil:
		if def, diags := decl.Default.Value(nil); !diags.HasErrors() {
			if converted, err := convert.Convert(def, ty); err == nil {
				val = converted
			}
		}
	}
	if decl.Sensitive {
		val = val.Mark(marks.Sensitive)
	}
	if decl.Ephemeral {
		val = val.Mark(marks.Ephemeral)
	}
	return val
}

// validateVariables checks the validation rules of the module's variables
// against their values, as OpenTofu's validate walk does.
func (m *moduleValidator) validateVariables() {
	given := m.args.values[m.cfg.Path.String()]
	for _, name := range sortedKeys(m.cfg.Module.Variables) {
		decl := m.cfg.Module.Variables[name]
		if len(decl.Validations) == 0 {
			continue
		}
		val, ok := given[name]
		validating := &variableUnderValidation{name: name, value: validatedValue(m.cfg, decl, val, ok)}
		scope := m.scope.WithData(&validationData{module: m, validating: validating}, nil)
		subject := decl.DeclRange
		if expr := m.cfg.CallArgument(name); expr != nil {
			subject = expr.Range()
		}
		addr := addrs.InputVariable{Name: name}.Absolute(addrs.RootModuleInstance).String()
		if !m.cfg.Path.IsRoot() {
			addr = m.cfg.Path.String() + ".var." + name
		}
		_, _, ds := VariableValidations(scope, decl, addr, subject)
		m.report.add(ds)
	}
}
