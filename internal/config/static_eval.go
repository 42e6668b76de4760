package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
)

// Static evaluation is OpenTofu's early evaluation (1.8+): a module
// call's source and version may be built from input variables, locals,
// path.*, terraform.workspace and built-in functions, worked out from the
// configuration and the root variables' values before anything is
// installed or planned. Resources, data sources, module outputs, count,
// each and provider functions are not available then.

// StaticInputs are what static evaluation reads beyond the configuration.
type StaticInputs struct {
	// RootVariable gives the value of the root module variable name, one
	// of decls, as the command line, variable files, environment and
	// default set it. Nil gives defaults only.
	RootVariable func(decls map[string]*Variable, name string) (cty.Value, hcl.Diagnostics)
	// Workspace is terraform.workspace.
	Workspace string
}

// needsStaticEvaluation reports whether an expression refers to anything
// or calls a function, so it cannot be decoded as a literal.
func needsStaticEvaluation(expr hcl.Expression) bool {
	if len(expr.Variables()) > 0 {
		return true
	}
	syntax, ok := expr.(hclsyntax.Expression)
	if !ok {
		return false
	}
	calls := false
	_ = hclsyntax.VisitAll(syntax, func(node hclsyntax.Node) hcl.Diagnostics {
		if _, ok := node.(*hclsyntax.FunctionCallExpr); ok {
			calls = true
		}
		return nil
	})
	return calls
}

// StaticModule is one module of the tree as static evaluation sees it:
// its configuration, and the call that brought it in, whose arguments give
// its variables.
type StaticModule struct {
	module  *Module
	path    addrs.Module
	parent  *StaticModule
	call    *ModuleCall // in parent's module; nil for the root
	rootDir string
	inputs  StaticInputs

	values map[string]cty.Value
}

// StaticRoot returns the root of static evaluation for the root module mod
// in rootDir, reading the parser's StaticInputs.
func (p *Parser) StaticRoot(mod *Module, rootDir string) *StaticModule {
	return &StaticModule{module: mod, path: addrs.RootModule, rootDir: rootDir, inputs: p.Static,
		values: map[string]cty.Value{}}
}

// Child returns the static view of the module call brings in, whose
// configuration is mod.
func (s *StaticModule) Child(call *ModuleCall, mod *Module) *StaticModule {
	return &StaticModule{module: mod, path: s.path.Child(call.Name), parent: s, call: call, rootDir: s.rootDir,
		inputs: s.inputs, values: map[string]cty.Value{}}
}

// staticIdent names what a static evaluation is for, as OpenTofu names it
// in messages: "module.NAME.source" in the root module, "module.a:var.x"
// for a variable of module a.
type staticIdent struct {
	module    addrs.Module
	subject   string
	declRange hcl.Range
}

func (id staticIdent) String() string {
	if len(id.module) == 0 {
		return id.subject
	}
	return id.module.String() + ":" + id.subject
}

// EvaluateStatic works out what OpenTofu works out when it reads a
// module: the sources and versions of its calls built from variables and
// locals, and its const variables.
func (s *StaticModule) EvaluateStatic() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(s.module.ModuleCalls) {
		diags = append(diags, s.ResolveCall(s.module.ModuleCalls[name])...)
	}
	return append(diags, s.CheckConstVariables()...)
}

// ResolveCall works out a call's source and version when they are
// expressions, setting SourceAddr and Version. Literal ones were decoded
// with the module.
func (s *StaticModule) ResolveCall(call *ModuleCall) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if call.VersionExpr != nil && call.Version.Source == "" {
		ident := staticIdent{module: s.path, subject: "module." + call.Name + ".version", declRange: call.VersionExpr.Range}
		val, moreDiags := s.evaluate(call.VersionExpr.Expr, ident)
		diags = append(diags, moreDiags...)
		if !moreDiags.HasErrors() {
			constraint, moreDiags := decodeVersionConstraint(&hcl.Attribute{Name: "version",
				Expr: &hclsyntax.LiteralValueExpr{Val: val, SrcRange: call.VersionExpr.Expr.Range()}, Range: call.VersionExpr.Range})
			diags = append(diags, moreDiags...)
			if !moreDiags.HasErrors() {
				call.Version = constraint
			}
		}
	}
	if call.SourceExpr != nil && call.SourceAddr == "" {
		ident := staticIdent{module: s.path, subject: "module." + call.Name + ".source", declRange: call.SourceExpr.Range()}
		val, moreDiags := s.evaluate(call.SourceExpr, ident)
		diags = append(diags, moreDiags...)
		if !moreDiags.HasErrors() {
			source, err := convert.Convert(val, cty.String)
			if err != nil || source.IsNull() {
				diags = append(diags, staticDiag("Invalid module source address",
					"The source argument must be a string.", call.SourceExpr.Range()))
			} else {
				call.SourceAddr = source.AsString()
			}
		}
	}
	if !diags.HasErrors() && (call.SourceExpr != nil || call.VersionExpr != nil) {
		diags = append(diags, checkRegistrySource(call)...)
	}
	return diags
}

// evaluate evaluates expr for ident in this module's static scope. A
// sensitive result is refused: a module source or version is written to
// the module manifest and shown in plain text.
func (s *StaticModule) evaluate(expr hcl.Expression, ident staticIdent) (cty.Value, hcl.Diagnostics) {
	val, diags := s.evalIn(expr, []staticIdent{ident})
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if marks.Contains(val, marks.Sensitive) {
		return cty.DynamicVal, append(diags, staticDiag("Sensitive value not allowed",
			fmt.Sprintf("Sensitive values, or values derived from sensitive values, cannot be used as %s.", ident), expr.Range()))
	}
	if !val.IsWhollyKnown() {
		return cty.DynamicVal, append(diags, staticDiag("Unknown value in static context",
			fmt.Sprintf("%s must be known before anything is planned, but it depends on a value that is not known yet.", ident), expr.Range()))
	}
	return val, diags
}

// evalIn evaluates expr with stack saying what it is being evaluated for,
// innermost last.
func (s *StaticModule) evalIn(expr hcl.Expression, stack []staticIdent) (cty.Value, hcl.Diagnostics) {
	data := &staticData{module: s, stack: stack}
	scope := &lang.Scope{Data: data, BaseDir: ".", ProviderFunctions: data.noProviderFunctions()}
	return scope.EvalExpr(expr, cty.DynamicPseudoType)
}

// variable is var.NAME of this module as caller reads it: for the root,
// from the inputs; for a child, its call's argument evaluated in the
// caller.
func (s *StaticModule) variable(name string, rng hcl.Range, caller *staticData) (cty.Value, hcl.Diagnostics) {
	decl := s.module.Variables[name]
	if decl == nil {
		return cty.DynamicVal, hcl.Diagnostics{staticDiag("Undefined variable", fmt.Sprintf("Undefined variable var.%s", name), rng)}
	}
	if decl.ConstSet && !decl.Const {
		return cty.DynamicVal, hcl.Diagnostics{staticDiag("Unable to use variable in static context",
			fmt.Sprintf("The variable %q cannot be used in a static context, because it is declared as \"const = false\".", name), rng)}
	}
	id := staticIdent{module: s.path, subject: "var." + name, declRange: decl.DeclRange}
	key := "var." + name
	if val, ok := s.values[key]; ok {
		return val, nil
	}
	val, diags := s.variableValue(decl)
	if diags.HasErrors() {
		return cty.DynamicVal, caller.enhance(id, diags)
	}
	if decl.Type.Defaults != nil && !val.IsNull() {
		val = decl.Type.Defaults.Apply(val)
	}
	converted, err := convert.Convert(val, decl.Type.Type)
	if err != nil {
		return cty.DynamicVal, caller.enhance(id, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: "Invalid value for input variable",
			Detail:  fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.", id.subject, id.declRange, err)}))
	}
	val = converted
	if decl.Sensitive {
		val = val.Mark(marks.Sensitive)
	}
	s.values[key] = val
	return val, diags
}

func (s *StaticModule) variableValue(decl *Variable) (cty.Value, hcl.Diagnostics) {
	if s.call == nil {
		if s.inputs.RootVariable != nil {
			return s.inputs.RootVariable(s.module.Variables, decl.Name)
		}
		return defaultValue(decl)
	}
	attrs, _ := s.call.Config.JustAttributes()
	attr, given := attrs[decl.Name]
	if !given {
		if decl.Default == nil {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Missing required variable in module call",
				Subject: s.call.Config.MissingItemRange().Ptr()}}
		}
		return defaultValue(decl)
	}
	return s.parent.evalIn(attr.Expr, []staticIdent{{module: s.path, subject: "var." + decl.Name, declRange: attr.Range}})
}

func defaultValue(decl *Variable) (cty.Value, hcl.Diagnostics) {
	if decl.Default == nil {
		return cty.DynamicVal, hcl.Diagnostics{staticDiag("No value for required variable",
			fmt.Sprintf("The root module variable %q has no default and is needed to work out a module source or version; give it a value with -var, a variables file or TF_VAR_%s.", decl.Name, decl.Name), decl.DeclRange)}
	}
	return decl.Default.Value(nil)
}

// CheckConstVariables evaluates the module's const variables, which must
// be known when the configuration is loaded. OpenTofu names this check by
// the module alone, at its call.
func (s *StaticModule) CheckConstVariables() hcl.Diagnostics {
	var callRange hcl.Range
	if s.call != nil {
		callRange = s.call.DeclRange
	}
	check := &staticData{module: s, stack: []staticIdent{{module: s.path, declRange: callRange}}}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(s.module.Variables) {
		if decl := s.module.Variables[name]; decl.Const {
			_, moreDiags := s.variable(name, decl.DeclRange, check)
			diags = append(diags, moreDiags...)
		}
	}
	return diags
}

// local is local.NAME of this module as caller reads it, evaluated in its
// static scope.
func (s *StaticModule) local(name string, rng hcl.Range, caller *staticData) (cty.Value, hcl.Diagnostics) {
	local := s.module.Locals[name]
	if local == nil {
		return cty.DynamicVal, hcl.Diagnostics{staticDiag("Undefined local", fmt.Sprintf("Undefined local local.%s", name), rng)}
	}
	id := staticIdent{module: s.path, subject: "local." + name, declRange: local.DeclRange}
	key := "local." + name
	if val, ok := s.values[key]; ok {
		return val, nil
	}
	for _, frame := range caller.stack {
		if frame.String() == id.String() {
			return cty.DynamicVal, hcl.Diagnostics{staticDiag("Circular reference", fmt.Sprintf("%s is self referential", id), id.declRange)}
		}
	}
	stack := append(append([]staticIdent(nil), caller.stack...), id)
	val, diags := s.evalIn(local.Expr, stack)
	if diags.HasErrors() {
		return cty.DynamicVal, caller.enhance(id, diags)
	}
	s.values[key] = val
	return val, diags
}

func staticDiag(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

// staticData answers references in a static context. stack is what the
// evaluation is for, innermost last: a module source, the local value it
// refers to, and so on.
type staticData struct {
	module *StaticModule
	stack  []staticIdent
}

func (d *staticData) top() staticIdent { return d.stack[len(d.stack)-1] }

// enhance adds, to errors working out id, what needed it, as OpenTofu
// does.
func (d *staticData) enhance(id staticIdent, diags hcl.Diagnostics) hcl.Diagnostics {
	if !diags.HasErrors() {
		return diags
	}
	top := d.top()
	return append(diags, staticDiag("Unable to compute static value", fmt.Sprintf("%s depends on %s which is not available", top, id), top.declRange))
}

func (d *staticData) unavailable(summary, subject string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return cty.DynamicVal, hcl.Diagnostics{staticDiag(summary,
		fmt.Sprintf("Unable to use %s in static context, which is required by %s", subject, d.top()), rng)}
}

// noProviderFunctions refuses provider functions, as OpenTofu does in a
// static context: no provider runs before modules are installed.
func (d *staticData) noProviderFunctions() lang.ProviderFunctionResolver {
	return func(ref lang.ProviderFunctionRef) (function.Function, bool, hcl.Diagnostics) {
		_, diags := d.unavailable("Provider function in static context", ref.String(), ref.CallRange)
		return function.Function{}, false, diags
	}
}

func (d *staticData) GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.module.variable(addr.Name, rng, d)
}

func (d *staticData) GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.module.local(addr.Name, rng, d)
}

func (d *staticData) GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.unavailable("Module output not supported in static context", addr.String(), rng)
}

func (d *staticData) GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.unavailable("Dynamic value in static context", addr.String(), rng)
}

func (d *staticData) GetCountAttr(addr addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.unavailable("Dynamic value in static context", addr.String(), rng)
}

func (d *staticData) GetForEachAttr(addr addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.unavailable("Dynamic value in static context", addr.String(), rng)
}

func (d *staticData) GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch addr.Name {
	case "module":
		return cty.StringVal(filepath.ToSlash(d.module.module.SourceDir)), nil
	case "root":
		return cty.StringVal(filepath.ToSlash(d.module.rootDir)), nil
	case "cwd":
		wd, err := os.Getwd()
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{staticDiag("Failed to get working directory", err.Error(), rng)}
		}
		return cty.StringVal(filepath.ToSlash(wd)), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{staticDiag(`Invalid "path" attribute`,
		fmt.Sprintf(`The "path" object does not have an attribute named %q.`, addr.Name), rng)}
}

func (d *staticData) GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if addr.Name == "workspace" {
		workspace := d.module.inputs.Workspace
		if workspace == "" {
			workspace = "default"
		}
		return cty.StringVal(workspace), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{staticDiag(`Invalid "terraform" attribute`,
		fmt.Sprintf(`The "terraform" object does not have an attribute named %q. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.`, addr.Name), rng)}
}
