package validate

import (
	"context"
	"fmt"
	"sync"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// This file checks one module: values, expansion and every provider,
// resource and data block against its schema.

// moduleValidator checks one module of the tree. Values that are only
// known during a run — input variables, resource attributes, count.index,
// each.* — are unknown; locals are evaluated from them once, before the
// blocks are checked in parallel, and only read afterwards.
type moduleValidator struct {
	cfg       *config.Config
	providers Providers
	report    *report
	scope     *lang.Scope
	// args collects what this module's calls give their modules.
	args *callArguments

	variables   map[string]cty.Value
	locals      map[string]cty.Value
	evaluating  map[string]bool
	localsReady bool
}

func newModuleValidator(c *config.Config, running Providers, report *report, args *callArguments) *moduleValidator {
	m := &moduleValidator{
		cfg: c, providers: running, report: report, args: args,
		variables: map[string]cty.Value{}, locals: map[string]cty.Value{}, evaluating: map[string]bool{},
	}
	m.scope = &lang.Scope{BaseDir: c.Root.Module.SourceDir, PureOnly: true, ProviderFunctions: m.providerFunction}
	for name, v := range c.Module.Variables {
		m.variables[name] = unknownVariable(v)
	}
	return m
}

// validateValues evaluates locals, outputs and module call arguments, so
// that mistakes in them (wrong function arguments, bad references) are
// reported although no resource uses them.
func (m *moduleValidator) validateValues() {
	mod := m.cfg.Module
	scope := m.scope.WithData(&validationData{module: m}, nil)
	for _, name := range sortedKeys(mod.Locals) {
		_, d := m.localValue(name, mod.Locals[name].DeclRange)
		m.report.addHCL(d)
	}
	m.localsReady = true
	for _, name := range sortedKeys(mod.Outputs) {
		output := mod.Outputs[name]
		val, d := m.evalExpr(scope, output.Expr)
		m.report.addHCL(d)
		if m.cfg.Path.IsRoot() && !output.Sensitive && !d.HasErrors() && marks.Contains(val, marks.Sensitive) {
			m.report.add(diags.Diagnostics{lang.UndeclaredSensitiveOutput(output.DeclRange)})
		}
		if !output.Ephemeral && !d.HasErrors() && marks.Contains(val, marks.Ephemeral) {
			m.report.add(diags.Diagnostics{lang.EphemeralOutputNotAllowed(name, output.Expr.Range())})
		}
	}
	for _, name := range sortedKeys(mod.ModuleCalls) {
		call := mod.ModuleCalls[name]
		callScope := m.scope.WithData(&validationData{module: m, counted: call.Count != nil, forEach: call.ForEach != nil}, nil)
		m.report.addHCL(checkExpansion(callScope, call.Count, call.ForEach))
		if call.Config == nil {
			continue
		}
		child := m.cfg.Children[name]
		if child != nil {
			m.report.addHCL(checkCallArguments(call.Config, child.Module))
		}
		attrs, _ := call.Config.JustAttributes()
		for _, attrName := range sortedKeys(attrs) {
			val, d := m.evalExpr(callScope, attrs[attrName].Expr)
			m.report.addHCL(d)
			if !d.HasErrors() {
				m.args.set(m.cfg.Path.Child(name), attrName, val)
			}
			if decl := variableOf(child, attrName); decl != nil && decl.DeprecatedMessage != "" {
				m.report.add(diags.Diagnostics{lang.DeprecatedVariableWarning(attrName, decl.DeprecatedMessage, attrs[attrName].Expr, child.IsRemoteModule())})
			}
			if child == nil || d.HasErrors() || !marks.Contains(val, marks.Ephemeral) {
				continue
			}
			if decl := child.Module.Variables[attrName]; decl != nil && !decl.Ephemeral {
				m.report.add(diags.Diagnostics{lang.EphemeralVariableNotAllowed(attrName, attrs[attrName].Expr.Range())})
			}
		}
	}
}

// variableOf is the variable name declares in the module c, nil when c is
// nil or declares none.
func variableOf(c *config.Config, name string) *config.Variable {
	if c == nil {
		return nil
	}
	return c.Module.Variables[name]
}

// checkCallArguments checks a module call's arguments against the
// variables of the module it calls, as OpenTofu does when it builds its
// graph: each argument must name a variable, and every variable without
// a default must be given.
func checkCallArguments(body hcl.Body, child *config.Module) hcl.Diagnostics {
	schema := &hcl.BodySchema{}
	for _, name := range sortedKeys(child.Variables) {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: name, Required: child.Variables[name].Default == nil})
	}
	_, diags := body.Content(schema)
	return diags
}

// localValue evaluates local.NAME on first use, so locals may refer to
// each other in any order.
func (m *moduleValidator) localValue(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, ok := m.locals[name]; ok {
		return val, nil
	}
	local, declared := m.cfg.Module.Locals[name]
	if !declared {
		return cty.DynamicVal, nil // reported by config.ValidateReferences
	}
	if m.localsReady {
		// Evaluation failed earlier and was reported then.
		return cty.DynamicVal, nil
	}
	if m.evaluating[name] {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Self-referencing local value",
			Detail: fmt.Sprintf("Local value local.%s refers to itself, directly or through other local values. Break the cycle by computing one of them without the other.", name), Subject: local.DeclRange.Ptr()}}
	}
	if diags := selfReference(name, local.Expr); diags.HasErrors() {
		m.locals[name] = cty.DynamicVal
		return cty.DynamicVal, diags
	}
	m.evaluating[name] = true
	val, diags := m.evalExpr(m.scope.WithData(&validationData{module: m}, nil), local.Expr)
	delete(m.evaluating, name)
	m.locals[name] = val
	return val, diags
}

// selfReference reports each place a local value's expression refers to
// the local value itself, as OpenTofu does before evaluating it.
func selfReference(name string, expr hcl.Expression) hcl.Diagnostics {
	refs, _ := lang.ReferencesInExpr(expr)
	var diags hcl.Diagnostics
	for _, ref := range refs {
		if local, ok := ref.Subject.(addrs.LocalValue); ok && local.Name == name {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Self-referencing local value",
				Detail:  fmt.Sprintf("Local value local.%s cannot use its own result as part of its expression.", name),
				Subject: ref.SourceRange.Ptr(), Context: expr.Range().Ptr()})
		}
	}
	return diags
}

// checkExpansion checks count or for_each as far as it is known.
func checkExpansion(scope *lang.Scope, count, forEach hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if count != nil {
		_, _, d := scope.EvalCount(count, lang.Unknowns{Allow: true})
		diags = append(diags, d...)
	}
	if forEach != nil {
		_, _, d := scope.EvalForEach(forEach, lang.Unknowns{Allow: true})
		diags = append(diags, d...)
	}
	return diags
}

// validateBlocks checks the module's provider, resource and data blocks
// in parallel, reporting in source order.
func (m *moduleValidator) validateBlocks(ctx context.Context) {
	var checks []func() diags.Diagnostics
	for _, p := range inSourceOrder(m.cfg.Module.ProviderConfigs, func(p *config.Provider) hcl.Range { return p.DeclRange }) {
		checks = append(checks, func() diags.Diagnostics { return m.validateProviderBlock(ctx, p) })
	}
	for _, r := range inSourceOrder(m.cfg.Module.Resources, func(r *config.Resource) hcl.Range { return r.DeclRange }) {
		checks = append(checks, func() diags.Diagnostics { return m.validateResource(ctx, r) })
	}
	results := make([]diags.Diagnostics, len(checks))
	limit := make(chan struct{}, parallelism)
	var wg sync.WaitGroup
	for i, check := range checks {
		wg.Add(1)
		limit <- struct{}{}
		go func() {
			defer func() { <-limit; wg.Done() }()
			results[i] = check()
		}()
	}
	wg.Wait()
	for _, ds := range results {
		m.report.add(ds)
	}
}

func (m *moduleValidator) validateProviderBlock(ctx context.Context, p *config.Provider) diags.Diagnostics {
	scope := m.scope.WithData(&validationData{module: m, forEach: p.ForEach != nil}, nil)
	var ds diags.Diagnostics
	ds = m.appendHCL(ds, checkExpansion(scope, nil, p.ForEach))
	rp := m.providers[m.cfg.Module.ProviderForLocalName(p.Name)]
	// A provider block with nothing but meta-arguments has nothing for the
	// provider to check, as in Terraform.
	if rp == nil || isEmptyBody(p.Config) {
		return ds
	}
	block := rp.Schema.Provider.Block
	if block == nil {
		block = &schema.Block{}
	}
	val, evalDiags := m.evalBlock(scope, p.Config, block)
	ds = m.appendHCL(ds, evalDiags)
	if evalDiags.HasErrors() {
		return ds
	}
	unmarked, _ := val.UnmarkDeep()
	resp := rp.Interface.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: unmarked})
	where := "provider." + p.Addr().String()
	if p.Alias == "" {
		where = "provider." + p.Name
	}
	return append(ds, placeProviderDiags(resp.Diagnostics, p.Config, m.qualify(where))...)
}

func (m *moduleValidator) validateResource(ctx context.Context, r *config.Resource) diags.Diagnostics {
	scope := m.scope.WithData(&validationData{module: m, counted: r.Count != nil, forEach: r.ForEach != nil}, nil)
	var ds diags.Diagnostics
	ds = m.appendHCL(ds, checkExpansion(scope, r.Count, r.ForEach))
	rp := m.providers[r.Provider]
	if rp == nil {
		return ds
	}
	kind, types := resourceKind(r.Mode, rp.Schema)
	s, known := types[r.Type]
	if !known || s.Block == nil {
		return append(ds, unsupportedTypeDiag(r, kind, types))
	}
	ds = m.appendHCL(ds, m.validateLifecycle(r, s.Block))
	val, evalDiags := m.evalBlock(scope, r.Config, s.Block)
	ds = m.appendHCL(ds, evalDiags)
	if evalDiags.HasErrors() {
		return ds
	}
	if r.Mode != addrs.EphemeralResourceMode {
		_, pathMarks := val.UnmarkDeepWithPaths()
		ephemeral := lang.EphemeralInPersistedAttributes(s.Block, pathMarks)
		ds = append(ds, placeProviderDiags(ephemeral, r.Config, m.qualify(r.Addr().String()))...)
	}
	unmarked, _ := val.UnmarkDeep()
	var providerDiags diags.Diagnostics
	switch r.Mode {
	case addrs.DataResourceMode:
		providerDiags = rp.Interface.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: r.Type, Config: unmarked}).Diagnostics
	case addrs.EphemeralResourceMode:
		providerDiags = rp.Interface.ValidateEphemeralResourceConfig(ctx, providers.ValidateEphemeralResourceConfigRequest{TypeName: r.Type, Config: unmarked}).Diagnostics
	default:
		providerDiags = rp.Interface.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{
			TypeName: r.Type, Config: unmarked,
			ClientCapabilities: providers.ClientCapabilities{WriteOnlyAttributesAllowed: true},
		}).Diagnostics
	}
	return append(ds, placeProviderDiags(providerDiags, r.Config, m.qualify(r.Addr().String()))...)
}

// evalBlock decodes body with block's schema after checking that the
// references in it name attributes their resources' schemas have, so that
// a misspelled attribute gets the schema-aware message (with a suggestion)
// rather than a generic one from evaluation.
func (m *moduleValidator) evalBlock(scope *lang.Scope, body hcl.Body, block *schema.Block) (cty.Value, hcl.Diagnostics) {
	spec := block.DecoderSpec()
	refs, _ := lang.ReferencesInBlock(body, spec)
	if diags := m.checkResourceReferences(refs); diags.HasErrors() {
		return cty.UnknownVal(block.ImpliedType()), diags
	}
	return scope.EvalBlock(body, spec)
}

// evalExpr is evalBlock for a single expression.
func (m *moduleValidator) evalExpr(scope *lang.Scope, expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
	refs, _ := lang.ReferencesInExpr(expr)
	if diags := m.checkResourceReferences(refs); diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return scope.EvalExpr(expr, cty.DynamicPseudoType)
}

// checkResourceReferences checks the attribute steps of references to
// resources against the resource types' schemas. References whose shape
// depends on count or for_each are left to evaluation.
func (m *moduleValidator) checkResourceReferences(refs []*addrs.Reference) hcl.Diagnostics {
	return ResourceReferences(m.cfg, m.resourceSchema, refs)
}

// ResourceReferences checks the attribute steps of references to the
// resources of cfg's module against their types' schemas (schemaOf, nil
// where unknown), as OpenTofu's static validation of references does.
// References whose shape depends on count or for_each are left to
// evaluation.
func ResourceReferences(cfg *config.Config, schemaOf func(*config.Resource) *schema.Block, refs []*addrs.Reference) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, ref := range refs {
		var addr addrs.Resource
		keyed := false
		switch subject := ref.Subject.(type) {
		case addrs.Resource:
			addr = subject
		case addrs.ResourceInstance:
			addr, keyed = subject.Resource, subject.Key != addrs.NoKey
		default:
			continue
		}
		r := cfg.Module.Resources[addr]
		if r == nil {
			continue
		}
		if keyDiags := checkInstanceKey(r, addr, keyed, len(ref.Remaining) > 0, ref.SourceRange); keyDiags != nil || (r.Count != nil || r.ForEach != nil) != keyed {
			diags = append(diags, keyDiags...)
			continue
		}
		if block := schemaOf(r); block != nil {
			diags = append(diags, block.StaticValidateTraversal(ref.Remaining)...)
		}
	}
	return diags
}

// checkInstanceKey reports a reference with an instance key to a resource
// that has neither count nor for_each, and one without a key that reads an
// attribute of a resource that has, as OpenTofu's validation does.
func checkInstanceKey(r *config.Resource, addr addrs.Resource, keyed, readsAttribute bool, rng hcl.Range) hcl.Diagnostics {
	switch {
	case keyed && r.Count == nil && r.ForEach == nil:
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unexpected resource instance key",
			Detail:  fmt.Sprintf(`Because %s does not have "count" or "for_each" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource.`, addr),
			Subject: rng.Ptr()}}
	case keyed || !readsAttribute:
		return nil
	case r.Count != nil:
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Missing resource instance key",
			Detail:  fmt.Sprintf("Because %s has \"count\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[count.index]", addr, addr),
			Subject: rng.Ptr()}}
	case r.ForEach != nil:
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Missing resource instance key",
			Detail:  fmt.Sprintf("Because %s has \"for_each\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    %s[each.key]", addr, addr),
			Subject: rng.Ptr()}}
	}
	return nil
}

// resourceSchema is the schema of a resource's type, nil when its provider
// is not running or does not have the type.
func (m *moduleValidator) resourceSchema(r *config.Resource) *schema.Block {
	rp := m.providers[r.Provider]
	if rp == nil {
		return nil
	}
	_, types := resourceKind(r.Mode, rp.Schema)
	return types[r.Type].Block
}

// resourceKind is how messages name a block of mode, and the schemas of
// its provider's types of that kind.
func resourceKind(mode addrs.ResourceMode, s providers.GetProviderSchemaResponse) (string, map[string]schema.Schema) {
	switch mode {
	case addrs.DataResourceMode:
		return mode.TypeKind(), s.DataSources
	case addrs.EphemeralResourceMode:
		return mode.TypeKind(), s.EphemeralResources
	}
	return mode.TypeKind(), s.ResourceTypes
}

// appendHCL adds evaluation diagnostics to ds.
func (m *moduleValidator) appendHCL(ds diags.Diagnostics, hclDiags hcl.Diagnostics) diags.Diagnostics {
	return ds.Append(hclDiags)
}

// qualify prefixes a module-relative address with the module's path.
func (m *moduleValidator) qualify(addr string) string {
	if m.cfg.Path.IsRoot() {
		return addr
	}
	return m.cfg.Path.String() + "." + addr
}

func unsupportedTypeDiag(r *config.Resource, kind string, types map[string]schema.Schema) diags.Diagnostic {
	summary := "Invalid resource type"
	switch r.Mode {
	case addrs.DataResourceMode:
		summary = "Invalid data source"
	case addrs.EphemeralResourceMode:
		summary = "Invalid ephemeral resource type"
	}
	detail := fmt.Sprintf("The provider %s does not support %s %q.", addrs.ProviderForDisplay(r.Provider), kind, r.Type)
	if suggestion := nameSuggestion(r.Type, types); suggestion != "" {
		detail += fmt.Sprintf(" Did you mean %q?", suggestion)
	}
	return diags.Diagnostic{Severity: diags.Error, Summary: summary, Detail: detail, Subject: r.TypeRange.Ptr()}
}

// nameSuggestion returns the name in candidates closest to given when it is
// close enough to be a likely typo.
func nameSuggestion[V any](given string, candidates map[string]V) string {
	best, bestDistance := "", 3
	for _, name := range sortedKeys(candidates) {
		if d := levenshtein.Distance(given, name, nil); d < bestDistance {
			best, bestDistance = name, d
		}
	}
	return best
}

// providerFunction calls provider::NAME::FUNCTION as OpenTofu's validate
// walk does: through the provider, which needs no configuration for its
// functions. A function the provider's schema does not declare (it may
// offer more once configured), or a provider that could not be started,
// accepts anything and returns an unknown value.
func (m *moduleValidator) providerFunction(ref lang.ProviderFunctionRef) (function.Function, bool, hcl.Diagnostics) {
	if m.cfg.Module.RequiredProviders[ref.ProviderName] == nil {
		return function.Function{}, false, lang.UndeclaredFunctionProviders([]lang.ProviderFunctionRef{ref}, func(string) bool { return false })
	}
	rp := m.providers[m.cfg.Module.ProviderForLocalName(ref.ProviderName)]
	if rp != nil {
		if decl, found := rp.Schema.Functions[ref.Function]; found {
			return providers.CallableFunction(context.Background(), rp.Interface, ref.Function, decl), true, nil
		}
	}
	return function.New(&function.Spec{
		VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true},
		Type:     function.StaticReturnType(cty.DynamicPseudoType),
		Impl:     func([]cty.Value, cty.Type) (cty.Value, error) { return cty.DynamicVal, nil },
	}), true, nil
}
