package moduletest

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/validate"
)

// assertScope is what a run's assertions can refer to: everything in the
// root module of the configuration it ran (through the engine's values
// after the plan or apply), its outputs as output.NAME and the test's own
// variables.
type assertScope struct {
	cfg      *config.Config
	schemas  *providers.Schemas
	eval     *engine.Evaluation
	testVars map[string]cty.Value
	// stored are the root outputs in state, for those the walk did not
	// evaluate (left out by targeting, or after an error upstream).
	stored map[string]cty.Value
	// applied is set after an apply: the outputs are the state's.
	applied bool
	// lang is scope's result, made once.
	lang *lang.Scope
}

// evaluate checks every assertion of run, as OpenTofu does: false fails the
// run with the error message; a condition that is null, unknown or not a
// bool, or that cannot be evaluated, is an error.
func (s *assertScope) evaluate(run *Run) (Status, diags.Diagnostics) {
	status := Pass
	var ds diags.Diagnostics
	for _, rule := range run.Asserts {
		ctx, cds := s.context(rule)
		if ctx == nil {
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
	if static := s.staticCheck(forScope); static.HasErrors() {
		// As OpenTofu, references that fail its static validation leave
		// the assertion a context with functions and no values at all,
		// in which the condition and message are evaluated all the same:
		// each of their references is then an unknown variable too.
		ctx, _ := s.scope().EvalContext(nil, calls)
		ctx.Variables = map[string]cty.Value{}
		return ctx, static
	}
	// The engine's scope takes references to what the module does not
	// declare as values not known yet; report them as OpenTofu does.
	if undeclared := s.cfg.CheckTraversals(forScope); undeclared.HasErrors() {
		return nil, ds.Append(undeclared)
	}
	ctx, hd := s.scope().EvalContext(forScope, calls)
	if ds = ds.Append(hd); ds.HasErrors() {
		return nil, ds
	}
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

// scope is the engine's scope of the root module with file functions
// resolving relative paths from the working directory, as OpenTofu's
// assertions do, even in a run of another module.
func (s *assertScope) scope() *lang.Scope {
	if s.lang == nil {
		base := s.eval.Scope()
		s.lang = &lang.Scope{Data: base.Data, BaseDir: ".", PlanTimestamp: base.PlanTimestamp, PureOnly: base.PureOnly,
			ProviderFunctions: base.ProviderFunctions}
	}
	return s.lang
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

// errorMessage evaluates an assertion's error message as OpenTofu does: it
// must be a string, not null; an unknown one is empty; one that refers to
// sensitive or ephemeral values is withheld, with a warning.
func errorMessage(rule *config.CheckRule, ctx *hcl.EvalContext) (string, diags.Diagnostics) {
	expr := rule.ErrorMessage
	val, hd := expr.Value(ctx)
	ds := diags.Diagnostics{}.Append(hd)
	if hd.HasErrors() {
		return "", ds
	}
	invalid := func(detail string) diags.Diagnostics {
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid error message", Detail: detail,
			Subject: expr.Range().Ptr(), Expression: expr, EvalContext: ctx})
	}
	str, err := convert.Convert(val, cty.String)
	if err != nil {
		return "", invalid(fmt.Sprintf("Unsuitable value for error message: %s.", err))
	}
	if !str.IsKnown() {
		return "", ds
	}
	if str.IsNull() {
		return "", invalid("Unsuitable value for error message: must not be null.")
	}
	str, valMarks := str.Unmark()
	if _, sensitive := valMarks[marks.Sensitive]; sensitive {
		return "", ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Error message refers to sensitive values",
			Detail:  "The error expression used to explain this condition refers to sensitive values, so Terrane will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
			Subject: expr.Range().Ptr(), Expression: expr, EvalContext: ctx})
	}
	if _, ephemeral := valMarks[marks.Ephemeral]; ephemeral {
		return "", ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Error message refers to ephemeral values",
			Detail:  "The error expression used to explain this condition refers to ephemeral values, so Terrane will not display the resulting message.\n\nYou can correct this by removing references to ephemeral values or by utilizing the builtin ephemeralasnull() function.",
			Subject: expr.Range().Ptr(), Expression: expr, EvalContext: ctx})
	}
	return str.AsString(), ds
}

// staticCheck is OpenTofu's static validation of references for an
// assertion: resources and module calls the module must declare, and the
// attributes read from resources, which their schemas must have.
func (s *assertScope) staticCheck(traversals []hcl.Traversal) diags.Diagnostics {
	var static []hcl.Traversal
	var refs []*addrs.Reference
	for _, t := range traversals {
		ref, hd := addrs.ParseRef(t)
		if hd.HasErrors() || ref == nil {
			continue
		}
		switch ref.Subject.(type) {
		case addrs.Resource, addrs.ResourceInstance, addrs.ModuleCall, addrs.ModuleCallInstance, addrs.ModuleCallInstanceOutput:
			static = append(static, t)
			refs = append(refs, ref)
		}
	}
	ds := diags.Diagnostics{}.Append(s.cfg.CheckTraversals(static))
	if ds.HasErrors() {
		return ds
	}
	schemaOf := func(r *config.Resource) *schema.Block {
		sch, ok := s.schemas.ResourceType(r.Provider, r.Mode == addrs.DataResourceMode, r.Type)
		if !ok {
			return nil
		}
		return sch.Block
	}
	return ds.Append(validate.ResourceReferences(s.cfg, schemaOf, refs))
}
