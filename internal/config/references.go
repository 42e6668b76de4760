package config

import (
	"fmt"
	"sort"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/lang"
)

// refScope says which of the contextual objects an expression may use.
type refScope struct {
	count, each, self bool
	// iterators are the names of enclosing dynamic block iterators, which
	// would otherwise look like references to resources.
	iterators map[string]bool
}

// refChecker checks the references of one module's expressions.
type refChecker struct {
	config *Config
	diags  hcl.Diagnostics
	// functions are the provider-defined functions the expressions call.
	functions []lang.ProviderFunctionRef
	// outside is set for expressions written in no block of the module,
	// from where a check block's scoped data sources are not available.
	outside bool
}

// validateReferences reports references to things the module does not
// declare, and uses of count, each and self where they are not available.
func validateReferences(c *Config) hcl.Diagnostics {
	return checkModuleExpressions(c).diags
}

// CalledFunctionProviders lists the providers whose functions the
// configuration calls, by the names its modules declare them with; a
// provider may be needed for its functions alone.
func CalledFunctionProviders(cfg *Config) []addrs.Provider {
	var out []addrs.Provider
	cfg.DeepEach(func(c *Config) {
		for _, ref := range checkModuleExpressions(c).functions {
			if req := c.Module.RequiredProviders[ref.ProviderName]; req != nil && !ref.IsBuiltin() {
				out = append(out, req.Type)
			}
		}
	})
	return out
}

// checkModuleExpressions checks every expression of the module in c.
func checkModuleExpressions(c *Config) *refChecker {
	checker := &refChecker{config: c}
	mod := c.Module
	for _, name := range sortedKeys(mod.Locals) {
		checker.expr(mod.Locals[name].Expr, refScope{})
	}
	for _, name := range sortedKeys(mod.Outputs) {
		output := mod.Outputs[name]
		checker.expr(output.Expr, refScope{})
		checker.rules(output.Preconditions, refScope{})
		checker.traversals(output.DependsOn)
	}
	for _, name := range sortedKeys(mod.Variables) {
		checker.rules(mod.Variables[name].Validations, refScope{})
	}
	for _, key := range sortedProviderKeys(mod.ProviderConfigs) {
		provider := mod.ProviderConfigs[key]
		checker.expr(provider.ForEach, refScope{})
		checker.body(provider.Config, refScope{each: provider.ForEach != nil}, providerMetaArguments)
	}
	for _, name := range sortedKeys(mod.ModuleCalls) {
		checker.moduleCall(mod.ModuleCalls[name])
	}
	for _, resource := range sortedResources(mod.Resources) {
		checker.resource(resource)
	}
	for _, name := range sortedKeys(mod.Checks) {
		checker.rules(mod.Checks[name].Asserts, refScope{})
	}
	for _, imp := range mod.Import {
		scope := refScope{each: imp.ForEach != nil}
		checker.expr(imp.ForEach, refScope{})
		checker.expr(imp.ID, scope)
		// imp.To names the import's target rather than reading it, and
		// that target may not be declared yet: plan -generate-config-out
		// writes its block, as in Terraform, whose validate accepts it.
	}
	return checker
}

func (rc *refChecker) moduleCall(call *ModuleCall) {
	rc.expr(call.Count, refScope{})
	rc.expr(call.ForEach, refScope{})
	rc.expr(call.Enabled, refScope{})
	rc.traversals(call.DependsOn)
	scope := refScope{count: call.Count != nil, each: call.ForEach != nil}
	for _, passed := range call.Providers {
		rc.expr(passed.InParentKey, scope)
	}
	rc.body(call.Config, scope, moduleMetaArguments)
}

func (rc *refChecker) resource(resource *Resource) {
	rc.expr(resource.Count, refScope{})
	rc.expr(resource.ForEach, refScope{})
	rc.expr(resource.Enabled, refScope{})
	rc.traversals(resource.DependsOn)
	scope := refScope{count: resource.Count != nil, each: resource.ForEach != nil}
	if resource.ProviderConfigRef != nil {
		rc.expr(resource.ProviderConfigRef.KeyExpr, scope)
	}
	rc.body(resource.Config, scope, resourceMetaArguments)
	rc.rules(resource.Preconditions, scope)
	selfScope := scope
	selfScope.self = true
	rc.rules(resource.Postconditions, selfScope)
	if resource.Managed != nil {
		// replace_triggered_by's references are checked against the
		// schemas before planning, as OpenTofu checks them.
		rc.expr(resource.Managed.PreventDestroy, scope)
	}
}

func (rc *refChecker) rules(rules []*CheckRule, scope refScope) {
	for _, rule := range rules {
		rc.expr(rule.Condition, scope)
		rc.expr(rule.ErrorMessage, scope)
	}
}

func (rc *refChecker) traversals(traversals []hcl.Traversal) {
	for _, traversal := range traversals {
		ref, diags := addrs.ParseRef(traversal)
		if !diags.HasErrors() {
			rc.reference(ref, refScope{})
		}
	}
}

func (rc *refChecker) expr(expr hcl.Expression, scope refScope) {
	if expr == nil {
		return
	}
	functions := lang.ProviderFunctionsInExpr(expr)
	rc.functions = append(rc.functions, functions...)
	declared := func(name string) bool { return rc.config.Module.RequiredProviders[name] != nil }
	rc.diags = append(rc.diags, lang.UndeclaredFunctionProviders(functions, declared)...)
	for _, traversal := range expr.Variables() {
		if scope.iterators[traversal.RootName()] {
			continue
		}
		ref, diags := addrs.ParseRef(traversal)
		rc.diags = append(rc.diags, diags...)
		if ref != nil {
			rc.reference(ref, scope)
		}
	}
}

// body checks every expression in a body whose schema is not known yet.
// Only native-syntax bodies can be walked without a schema; JSON bodies are
// checked when they are decoded with the provider's schema.
//
// At the top level, the meta-arguments the block decoder already took out
// are skipped: the native body still holds them, only hidden.
func (rc *refChecker) body(body hcl.Body, scope refScope, skip map[string]bool) {
	switch body := body.(type) {
	case *hclsyntax.Body:
		rc.syntaxBody(body, scope, skip)
	case mergedBody:
		rc.body(body.base, scope, skip)
		rc.body(body.override, scope, skip)
	}
}

// These are the names each block decoder reads itself; their expressions
// are checked with their own scopes, or are not references at all.
var (
	resourceMetaArguments = map[string]bool{
		"count": true, "for_each": true, "provider": true, "depends_on": true,
		"lifecycle": true, "connection": true, "provisioner": true, "locals": true, "_": true,
	}
	providerMetaArguments = map[string]bool{"alias": true, "version": true, "for_each": true, "_": true}
	moduleMetaArguments   = map[string]bool{
		"source": true, "version": true, "count": true, "for_each": true, "depends_on": true, "providers": true,
		"lifecycle": true, "locals": true, "provider": true, "_": true,
	}
)

// dynamicBlockArguments are a dynamic block's own arguments, checked
// outside the iterator's scope (for_each) or holding no references.
var dynamicBlockArguments = map[string]bool{"for_each": true, "iterator": true, "labels": false}

func (rc *refChecker) syntaxBody(body *hclsyntax.Body, scope refScope, skip map[string]bool) {
	for _, attr := range sortedSyntaxAttributes(body.Attributes) {
		if skip[attr.Name] {
			continue
		}
		rc.expr(attr.Expr, scope)
	}
	for _, block := range body.Blocks {
		if skip[block.Type] {
			continue
		}
		inner := scope
		if block.Type == "dynamic" && len(block.Labels) == 1 {
			iterator := block.Labels[0]
			if attr, ok := block.Body.Attributes["iterator"]; ok {
				iterator = hcl.ExprAsKeyword(attr.Expr)
			}
			inner.iterators = make(map[string]bool, len(scope.iterators)+1)
			for name := range scope.iterators {
				inner.iterators[name] = true
			}
			if forEach, ok := block.Body.Attributes["for_each"]; ok {
				rc.expr(forEach.Expr, scope)
			}
			inner.iterators[iterator] = true
			rc.syntaxBody(block.Body, inner, dynamicBlockArguments)
			continue
		}
		rc.syntaxBody(block.Body, inner, nil)
	}
}

func (rc *refChecker) reference(ref *addrs.Reference, scope refScope) {
	mod := rc.config.Module
	switch subject := ref.Subject.(type) {
	case addrs.InputVariable:
		if _, ok := mod.Variables[subject.Name]; !ok {
			detail := fmt.Sprintf("An input variable with the name %q has not been declared.", subject.Name)
			if suggestion := nameSuggestion(subject.Name, sortedKeys(mod.Variables)); suggestion != "" {
				detail += fmt.Sprintf(" Did you mean %q?", suggestion)
			} else {
				detail += fmt.Sprintf(" This variable can be declared with a variable %q {} block.", subject.Name)
			}
			rc.report("Reference to undeclared input variable", detail, ref.SourceRange)
		}
	case addrs.LocalValue:
		if _, ok := mod.Locals[subject.Name]; !ok {
			detail := fmt.Sprintf("A local value with the name %q has not been declared.", subject.Name)
			if suggestion := nameSuggestion(subject.Name, sortedKeys(mod.Locals)); suggestion != "" {
				detail += fmt.Sprintf(" Did you mean %q?", suggestion)
			}
			rc.report("Reference to undeclared local value", detail, ref.SourceRange)
		}
	case addrs.Resource:
		rc.resourceRef(subject, ref.SourceRange)
	case addrs.ResourceInstance:
		rc.resourceRef(subject.Resource, ref.SourceRange)
	case addrs.ModuleCall:
		rc.moduleRef(subject.Name, ref.SourceRange)
	case addrs.ModuleCallInstance:
		rc.moduleRef(subject.Call.Name, ref.SourceRange)
	case addrs.ModuleCallInstanceOutput:
		rc.moduleRef(subject.Call.Call.Name, ref.SourceRange)
	default:
		rc.contextualRef(ref, scope)
	}
}

func (rc *refChecker) contextualRef(ref *addrs.Reference, scope refScope) {
	switch subject := ref.Subject.(type) {
	case addrs.CountAttr:
		if !scope.count {
			rc.report(`Reference to "count" in non-counted context`,
				`The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`, ref.SourceRange)
		} else if subject.Name != "index" {
			rc.report(`Invalid "count" attribute`,
				fmt.Sprintf(`The "count" object does not have an attribute named %q. The only supported attribute is count.index, which is the index of each instance of a resource block that has the "count" argument set.`, subject.Name), ref.SourceRange)
		}
	case addrs.ForEachAttr:
		if !scope.each {
			rc.report(`Reference to "each" in context without for_each`,
				`The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`, ref.SourceRange)
		} else if subject.Name != "key" && subject.Name != "value" {
			rc.report(`Invalid "each" attribute`,
				fmt.Sprintf(`The "each" object does not have an attribute named %q. The supported attributes are each.key and each.value, the current key and value pair of the "for_each" attribute set.`, subject.Name), ref.SourceRange)
		}
	case addrs.PathAttr:
		if subject.Name != "module" && subject.Name != "root" && subject.Name != "cwd" {
			rc.report(`Invalid "path" attribute`,
				fmt.Sprintf(`The "path" object does not have an attribute named %q.%s`, subject.Name, didYouMean(subject.Name, "cwd", "module", "root")), ref.SourceRange)
		}
	case addrs.TerraformAttr:
		if subject.Name != "workspace" && subject.Name != "applying" {
			root := "terraform"
			if subject.Tofu {
				root = "tofu"
			}
			rc.report(fmt.Sprintf(`Invalid %q attribute`, root),
				fmt.Sprintf(`The %q object does not have an attribute named %q. The only supported attribute is %s.workspace, the name of the currently-selected workspace.`, root, subject.Name, root), ref.SourceRange)
		}
	default:
		if ref.Subject == addrs.Self && !scope.self {
			rc.report(`Invalid "self" reference`,
				`The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`, ref.SourceRange)
		}
	}
}

func (rc *refChecker) resourceRef(resource addrs.Resource, rng hcl.Range) {
	kind := "managed"
	switch resource.Mode {
	case addrs.DataResourceMode:
		kind = "data"
	case addrs.EphemeralResourceMode:
		kind = "ephemeral"
	}
	if r, ok := rc.config.Module.Resources[resource]; ok {
		if rc.outside && r.ScopedToCheck != "" {
			rc.report("Reference to scoped resource",
				fmt.Sprintf("The referenced %s resource %q %q is not available from this context.", kind, resource.Type, resource.Name), rng)
		}
		return
	}
	rc.report("Reference to undeclared resource",
		fmt.Sprintf("There is no %s resource %q %q definition in %s.%s", kind, resource.Type, resource.Name, rc.moduleDisplay(), rc.otherModeSuggestion(resource)), rng)
}

// otherModeSuggestion suggests a resource of another mode with the same
// type and name, as OpenTofu does: a data source referred to without
// "data.", for one.
func (rc *refChecker) otherModeSuggestion(resource addrs.Resource) string {
	for _, mode := range []addrs.ResourceMode{addrs.ManagedResourceMode, addrs.DataResourceMode, addrs.EphemeralResourceMode} {
		if mode == resource.Mode {
			continue
		}
		candidate := resource
		candidate.Mode = mode
		if _, ok := rc.config.Module.Resources[candidate]; ok {
			return fmt.Sprintf("\n\nDid you mean the %s resource %s?", modeBlockName(mode), candidate)
		}
	}
	return ""
}

func modeBlockName(mode addrs.ResourceMode) string {
	switch mode {
	case addrs.DataResourceMode:
		return "data"
	case addrs.EphemeralResourceMode:
		return "ephemeral"
	}
	return "resource"
}

// moduleRef checks that a module call is declared; what it outputs is
// checked when the reference is evaluated, as in OpenTofu.
func (rc *refChecker) moduleRef(callName string, rng hcl.Range) {
	if _, ok := rc.config.Module.ModuleCalls[callName]; !ok {
		detail := fmt.Sprintf("No module call named %q is declared in %s.", callName, rc.moduleDisplay())
		if suggestion := nameSuggestion(callName, sortedKeys(rc.config.Module.ModuleCalls)); suggestion != "" {
			detail += fmt.Sprintf(" Did you mean %q?", suggestion)
		}
		rc.report("Reference to undeclared module", detail, rng)
	}
}

func (rc *refChecker) moduleDisplay() string {
	if rc.config.Path.IsRoot() {
		return "the root module"
	}
	return rc.config.Path.String()
}

func (rc *refChecker) report(summary, detail string, rng hcl.Range) {
	rc.diags = append(rc.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()})
}

// didYouMean is " Did you mean "NAME"?" for a name close to given, or "".
func didYouMean(given string, names ...string) string {
	if suggestion := nameSuggestion(given, names); suggestion != "" {
		return fmt.Sprintf(" Did you mean %q?", suggestion)
	}
	return ""
}

// nameSuggestion returns the name closest to given among names, if one is
// close enough to be a likely typo.
func nameSuggestion(given string, names []string) string {
	for _, name := range names {
		if levenshtein.Distance(given, name, nil) < 3 {
			return name
		}
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

func sortedProviderKeys(m map[addrs.LocalProviderConfig]*Provider) []addrs.LocalProviderConfig {
	keys := make([]addrs.LocalProviderConfig, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	return keys
}

// sortedResources returns resources in source order.
func sortedResources(m map[addrs.Resource]*Resource) []*Resource {
	list := make([]*Resource, 0, len(m))
	for _, resource := range m {
		list = append(list, resource)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i].DeclRange, list[j].DeclRange
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
	return list
}

func sortedSyntaxAttributes(attrs hclsyntax.Attributes) []*hclsyntax.Attribute {
	list := make([]*hclsyntax.Attribute, 0, len(attrs))
	for _, attr := range attrs {
		list = append(list, attr)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].SrcRange.Start.Byte < list[j].SrcRange.Start.Byte })
	return list
}

// CheckTraversals reports the traversals that refer to something the
// module does not declare, as validation reports the module's own
// expressions: a test file's assertions, written outside the module, are
// checked this way before they are evaluated. A check block's scoped data
// source is not available from outside it.
func (c *Config) CheckTraversals(traversals []hcl.Traversal) hcl.Diagnostics {
	checker := &refChecker{config: c, outside: true}
	for _, traversal := range traversals {
		ref, diags := addrs.ParseRef(traversal)
		checker.diags = append(checker.diags, diags...)
		if ref != nil {
			checker.reference(ref, refScope{})
		}
	}
	return checker.diags
}
