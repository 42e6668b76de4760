package moduletest

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/lang"
)

// GlobalValue is a variable value given outside the test files: in the
// environment (TF_VAR_), in terraform.tfvars or *.auto.tfvars beside the
// configuration or the tests, or with -var and -var-file. It is read when
// a run uses it, as the configuration that run tests declares it.
type GlobalValue interface {
	// Parse reads the value for a variable declared as decl; nil decl
	// means the configuration does not declare it.
	Parse(decl *config.Variable) (cty.Value, hcl.Range, diags.Diagnostics)
	// EngineSource is where the value came from, which the engine's
	// messages about it name.
	EngineSource() engine.ValueSourceType
}

// testContext is where a run's variables blocks and the test file's
// provider blocks are evaluated: var holds the global values and the
// defaults of the configuration under test, run the outputs of the runs
// that last changed each state, and every built-in function is there.
func testContext(cfg *config.Config, globals map[string]GlobalValue, runs map[string]cty.Value) (*hcl.EvalContext, diags.Diagnostics) {
	// As in OpenTofu, what is wrong with a global value is reported where
	// a run's variables are worked out (inputValues), not here as well.
	vars, _ := globalValues(cfg, globals)
	var ds diags.Diagnostics
	for name, decl := range cfg.Module.Variables {
		if _, given := vars[name]; given || decl.Default == nil {
			continue
		}
		def, hd := decl.Default.Value(nil)
		ds = ds.Append(hd)
		vars[name] = def
	}
	scope := &lang.Scope{BaseDir: "."}
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars), "run": cty.ObjectVal(runs)},
		Functions: scope.Functions(),
	}, ds
}

// globalValues reads every global value, with the optional-attribute
// defaults of the declaration where there is one. As in OpenTofu's test
// context, the text of a -var option or TF_VAR_ variable is a string here
// whatever the declared type (the run's value for the module is read as
// the type asks, see inputValues).
func globalValues(cfg *config.Config, globals map[string]GlobalValue) (map[string]cty.Value, diags.Diagnostics) {
	var ds diags.Diagnostics
	vars := make(map[string]cty.Value, len(globals))
	for name, g := range globals {
		decl := cfg.Module.Variables[name]
		val, _, gd := g.Parse(nil)
		ds = ds.Append(gd)
		if decl != nil && decl.Type.Defaults != nil && !val.IsNull() && val.IsKnown() {
			val = decl.Type.Defaults.Apply(val)
		}
		vars[name] = val
	}
	return vars, ds
}

// inputValues are the values of the variables cfg declares for one run:
// the run's variables block first, then the file's, then the global
// values. Variables with none of these take their defaults in the engine.
func inputValues(cfg *config.Config, file *File, run *Run, globals map[string]GlobalValue, ctx *hcl.EvalContext) (engine.InputValues, diags.Diagnostics) {
	values := engine.InputValues{}
	var ds diags.Diagnostics
	for name, decl := range cfg.Module.Variables {
		expr, ok := run.Variables[name]
		if !ok {
			expr, ok = file.Variables[name]
		}
		if ok {
			val, hd := expr.Value(ctx)
			if ds = ds.Append(hd); !hd.HasErrors() {
				values[name] = &engine.InputValue{Value: val, SourceType: engine.ValueFromCaller, SourceRange: expr.Range()}
			}
		} else if g, ok := globals[name]; ok {
			val, rng, gd := g.Parse(decl)
			if ds = ds.Append(gd); !gd.HasErrors() {
				values[name] = &engine.InputValue{Value: val, SourceType: g.EngineSource(), SourceRange: rng}
			}
		}
	}
	return values, ds.Append(unsetRequired(cfg, values))
}

// unsetRequired reports the required variables that have no value, as
// OpenTofu does before planning: a value that could not be worked out is
// no value.
func unsetRequired(cfg *config.Config, values engine.InputValues) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, name := range sortedNames(cfg.Module.Variables) {
		decl := cfg.Module.Variables[name]
		if values[name] != nil || decl.Default != nil {
			continue
		}
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "No value for required variable",
			Detail:  fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", name),
			Subject: decl.DeclRange.Ptr()})
	}
	return ds
}

// providerContext is ctx with the run's own values of the variables the
// configuration declares in var, for the test file's provider blocks.
func providerContext(ctx *hcl.EvalContext, inputs engine.InputValues) *hcl.EvalContext {
	vars := ctx.Variables["var"].AsValueMap()
	if vars == nil {
		vars = map[string]cty.Value{}
	}
	for name, in := range inputs {
		if in.Value != cty.NilVal && !in.Value.IsNull() {
			vars[name] = in.Value
		}
	}
	out := *ctx
	out.Variables = map[string]cty.Value{"var": cty.ObjectVal(vars), "run": ctx.Variables["run"]}
	return &out
}

// assertionVariables are the values var.NAME has in a run's assertions for
// variables the configuration does not declare: the test file may set
// variables only the assertions read (declared ones read the engine's
// values, converted to their types). As in OpenTofu, what goes wrong
// working them out is not reported (a value that cannot be worked out is
// unknown): a file's variables meant for another module, or naming a run
// still to come, do not fail the run.
func assertionVariables(cfg *config.Config, file *File, run *Run, globals map[string]GlobalValue, ctx *hcl.EvalContext) map[string]cty.Value {
	out := map[string]cty.Value{}
	for name, g := range globals {
		if cfg.Module.Variables[name] == nil {
			val, _, _ := g.Parse(nil)
			out[name] = val
		}
	}
	for _, vars := range []map[string]hcl.Expression{file.Variables, run.Variables} {
		for name, expr := range vars {
			if cfg.Module.Variables[name] != nil {
				continue
			}
			val, _ := expr.Value(ctx)
			out[name] = val
		}
	}
	return out
}
