package moduletest

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
)

// assertScope is what a run's assertions can refer to: everything in the
// root module of the configuration it ran (through the engine's values
// after the plan or apply), its outputs as output.NAME and the test's own
// variables.
type assertScope struct {
	cfg      *config.Config
	eval     *engine.Evaluation
	testVars map[string]cty.Value
	// stored are the root outputs in state, for those the walk did not
	// evaluate (left out by targeting, or after an error upstream).
	stored map[string]cty.Value
	// applied is set after an apply: the outputs are the state's.
	applied bool
}

// evaluate checks every assertion of run, as OpenTofu does: false fails the
// run with the error message; a condition that is null, unknown or not a
// bool, or that cannot be evaluated, is an error.
func (s *assertScope) evaluate(run *Run) (Status, diags.Diagnostics) {
	status := Pass
	var ds diags.Diagnostics
	for _, rule := range run.Asserts {
		ctx, cds := s.context(rule)
		if cds.HasErrors() {
			status = status.Merge(Error)
			ds = ds.Append(cds)
			continue
		}
		message, mds := errorMessage(rule, ctx)
		cds = cds.Append(mds)
		val, hd := rule.Condition.Value(ctx)
		cds = cds.Append(hd)
		ds = ds.Append(cds)
		if cds.HasErrors() {
			status = status.Merge(Error)
			continue
		}
		val, _ = val.UnmarkDeep()
		rng := rule.Condition.Range().Ptr()
		switch {
		case val.IsNull():
			status = status.Merge(Error)
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid condition run",
				Detail: "Condition expression must return either true or false, not null.", Subject: rng, Expression: rule.Condition, EvalContext: ctx})
			continue
		case !val.IsKnown():
			status = status.Merge(Error)
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Unknown condition run",
				Detail: "Condition expression could not be evaluated at this time.", Subject: rng, Expression: rule.Condition, EvalContext: ctx})
			continue
		}
		b, err := convert.Convert(val, cty.Bool)
		if err != nil {
			status = status.Merge(Error)
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid condition run",
				Detail: fmt.Sprintf("Invalid condition run value: %s.", err), Subject: rng, Expression: rule.Condition, EvalContext: ctx})
			continue
		}
		if b.False() {
			status = status.Merge(Fail)
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Test assertion failed", Detail: message, Subject: rng, Expression: rule.Condition, EvalContext: ctx})
		}
	}
	return status, ds
}

// context gathers the values rule refers to. References to root outputs
// and variables only the test sets are the test's own; the rest are
// resolved by the engine's scope of the root module. run.NAME is not
// among them: OpenTofu reads it as a reference to a resource of type
// "run", which the module does not declare.
func (s *assertScope) context(rule *config.CheckRule) (*hcl.EvalContext, diags.Diagnostics) {
	var traversals, forScope []hcl.Traversal
	traversals = append(traversals, rule.Condition.Variables()...)
	traversals = append(traversals, rule.ErrorMessage.Variables()...)
	outputs := map[string]cty.Value{}
	vars := map[string]cty.Value{}
	var ds diags.Diagnostics
	for _, t := range traversals {
		name, _ := attrStep(t, 1)
		switch t.RootName() {
		case "output":
			val, ok := s.output(name)
			if !ok {
				ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Reference to undeclared output value",
					Detail: fmt.Sprintf("An output value with the name %q has not been declared.", name), Subject: t.SourceRange().Ptr()})
				val = cty.DynamicVal
			}
			outputs[name] = val
			continue
		case "var":
			if _, declared := s.cfg.Module.Variables[name]; !declared {
				if val, ok := s.testVars[name]; ok {
					vars[name] = val
					continue
				}
			}
		}
		forScope = append(forScope, t)
	}
	calls := append(lang.ProviderFunctionsInExpr(rule.Condition), lang.ProviderFunctionsInExpr(rule.ErrorMessage)...)
	if undeclared := s.cfg.CheckTraversals(forScope); undeclared.HasErrors() {
		// OpenTofu evaluates the message and the condition all the same,
		// in a context with functions and no values at all: each
		// reference is then an unknown variable.
		ctx, hd := s.scope().EvalContext(nil, calls)
		ds = ds.Append(undeclared).Append(hd)
		ctx.Variables = map[string]cty.Value{}
		_, md := rule.ErrorMessage.Value(ctx)
		_, cd := rule.Condition.Value(ctx)
		return nil, ds.Append(md).Append(cd)
	}
	ctx, hd := s.scope().EvalContext(forScope, calls)
	ds = ds.Append(hd)
	if ctx.Variables == nil {
		ctx.Variables = map[string]cty.Value{}
	}
	if existing, ok := ctx.Variables["var"]; ok {
		for name, val := range existing.AsValueMap() {
			vars[name] = val
		}
	}
	if len(vars) > 0 {
		ctx.Variables["var"] = cty.ObjectVal(vars)
	}
	ctx.Variables["output"] = cty.ObjectVal(outputs)
	return ctx, ds
}

// scope is the engine's scope of the root module, with file functions
// resolving paths against the working directory, where OpenTofu's test
// runner evaluates assertions (not the directory of a run's module).
func (s *assertScope) scope() *lang.Scope {
	in := s.eval.Scope()
	return &lang.Scope{Data: in.Data, BaseDir: ".", PlanTimestamp: in.PlanTimestamp, PureOnly: in.PureOnly,
		ProviderFunctions: in.ProviderFunctions}
}

func (s *assertScope) output(name string) (cty.Value, bool) {
	if _, declared := s.cfg.Module.Outputs[name]; !declared {
		return cty.NilVal, false
	}
	if s.applied {
		if stored, ok := s.stored[name]; ok {
			return stored, true
		}
		return cty.NullVal(cty.DynamicPseudoType), true
	}
	val, ok := s.eval.Output(name)
	if !ok {
		// OpenTofu reads the outputs from the state the run left: one the
		// walk did not reach keeps its value there, or is null.
		if stored, ok := s.stored[name]; ok {
			return stored, true
		}
		return cty.NullVal(cty.DynamicPseudoType), true
	}
	// OpenTofu reads even a plan's outputs from the state it leaves,
	// where what is not known yet is null.
	unmarked, pvm := val.UnmarkDeepWithPaths()
	return cty.UnknownAsNull(unmarked).MarkWithPaths(pvm), true
}

// errorMessage evaluates an assertion's error message, which must be a
// known string and may not reveal a sensitive value.
func errorMessage(rule *config.CheckRule, ctx *hcl.EvalContext) (string, diags.Diagnostics) {
	val, hd := rule.ErrorMessage.Value(ctx)
	ds := diags.Diagnostics{}.Append(hd)
	if hd.HasErrors() {
		return "", ds
	}
	if marks.Contains(val, marks.Sensitive) {
		return "The error message included a sensitive value, so it will not be displayed.", ds
	}
	val, _ = val.UnmarkDeep()
	str, err := convert.Convert(val, cty.String)
	if err != nil {
		return "", ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid error message",
			Detail: fmt.Sprintf("Unsuitable value for error message: %s.", err), Subject: rule.ErrorMessage.Range().Ptr()})
	}
	if !str.IsKnown() || str.IsNull() {
		return "", ds
	}
	return str.AsString(), ds
}
