package encryption

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/lang/funcs"
)

// staticScope evaluates the encryption configuration's expressions before
// any state is read: they may use the root module's variables and locals,
// path values and the built-in functions, and nothing that comes from
// state or providers.
type staticScope struct {
	module    *config.Module
	variable  func(name string) (cty.Value, hcl.Diagnostics)
	baseDir   string
	functions map[string]function.Function

	locals     map[string]cty.Value
	evaluating map[string]bool
}

func newStaticScope(module *config.Module, variable func(string) (cty.Value, hcl.Diagnostics), baseDir string) *staticScope {
	return &staticScope{
		module: module, variable: variable, baseDir: baseDir,
		functions:  funcs.Table(funcs.Options{BaseDir: baseDir, PureOnly: false}),
		locals:     map[string]cty.Value{},
		evaluating: map[string]bool{},
	}
}

// keyProviderRef is a reference to key_provider.TYPE.NAME.
type keyProviderRef struct {
	Type, Name string
	Range      hcl.Range
}

// evalContext builds the context for expressions referring to traversals.
// References to key providers are returned for the caller to resolve and
// add, under "key_provider", when allowKeyProviders is set.
func (s *staticScope) evalContext(traversals []hcl.Traversal, allowKeyProviders bool) (*hcl.EvalContext, []keyProviderRef, hcl.Diagnostics) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: s.functions}
	vars, locals := map[string]cty.Value{}, map[string]cty.Value{}
	var refs []keyProviderRef
	var diags hcl.Diagnostics
	for _, traversal := range traversals {
		root := traversal.RootName()
		name, nameOK := attrStep(traversal, 1)
		switch {
		case root == "var" && nameOK:
			val, valDiags := s.variableValue(name, traversal.SourceRange())
			diags = append(diags, valDiags...)
			vars[name] = val
		case root == "local" && nameOK:
			val, valDiags := s.localValue(name, traversal.SourceRange())
			diags = append(diags, valDiags...)
			locals[name] = val
		case root == "path" && nameOK:
			ctx.Variables["path"] = s.pathValues()
		case root == "key_provider" && allowKeyProviders:
			kpName, ok := attrStep(traversal, 2)
			if !nameOK || !ok {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid key provider reference",
					Detail: "A key provider is referenced as key_provider.TYPE.NAME.", Subject: traversal.SourceRange().Ptr()})
				continue
			}
			refs = append(refs, keyProviderRef{Type: name, Name: kpName, Range: traversal.SourceRange()})
		default:
			diags = append(diags, invalidReference(traversal, allowKeyProviders))
		}
	}
	if len(vars) > 0 {
		ctx.Variables["var"] = cty.ObjectVal(vars)
	}
	if len(locals) > 0 {
		ctx.Variables["local"] = cty.ObjectVal(locals)
	}
	return ctx, refs, diags
}

func attrStep(traversal hcl.Traversal, i int) (string, bool) {
	if len(traversal) <= i {
		return "", false
	}
	step, ok := traversal[i].(hcl.TraverseAttr)
	return step.Name, ok
}

func invalidReference(traversal hcl.Traversal, allowKeyProviders bool) *hcl.Diagnostic {
	allowed := "input variables (var.NAME), local values (local.NAME) and path values"
	if allowKeyProviders {
		allowed += ", and key providers (key_provider.TYPE.NAME)"
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid reference in the encryption configuration",
		Detail: fmt.Sprintf("The encryption configuration is evaluated before any state is read, so it can refer only to %s; %s is none of these.",
			allowed, traversalString(traversal)),
		Subject: traversal.SourceRange().Ptr()}
}

func traversalString(traversal hcl.Traversal) string {
	out := traversal.RootName()
	for _, step := range traversal[1:] {
		if attr, ok := step.(hcl.TraverseAttr); ok {
			out += "." + attr.Name
		}
	}
	return out
}

func (s *staticScope) variableValue(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if s.module == nil || s.module.Variables[name] == nil {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared input variable",
			Detail: fmt.Sprintf("The encryption configuration refers to var.%s, but the root module declares no variable %q.", name, name), Subject: rng.Ptr()}}
	}
	if s.variable == nil {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No value for variable",
			Detail: fmt.Sprintf("The encryption configuration needs var.%s, and no variable values are available here.", name), Subject: rng.Ptr()}}
	}
	return s.variable(name)
}

// localValue evaluates a local in the static scope, once.
func (s *staticScope) localValue(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, done := s.locals[name]; done {
		return val, nil
	}
	var local *config.Local
	if s.module != nil {
		local = s.module.Locals[name]
	}
	if local == nil {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared local value",
			Detail: fmt.Sprintf("The encryption configuration refers to local.%s, but the root module defines no local %q.", name, name), Subject: rng.Ptr()}}
	}
	if s.evaluating[name] {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cycle in local values",
			Detail: fmt.Sprintf("local.%s refers to itself through other locals.", name), Subject: local.DeclRange.Ptr()}}
	}
	s.evaluating[name] = true
	defer delete(s.evaluating, name)
	ctx, _, diags := s.evalContext(local.Expr.Variables(), false)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	val, valDiags := local.Expr.Value(ctx)
	diags = append(diags, valDiags...)
	if !diags.HasErrors() {
		s.locals[name] = val
	}
	return val, diags
}

func (s *staticScope) pathValues() cty.Value {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = s.baseDir
	}
	return cty.ObjectVal(map[string]cty.Value{
		"module": cty.StringVal(s.baseDir), "root": cty.StringVal(s.baseDir), "cwd": cty.StringVal(cwd),
	})
}
