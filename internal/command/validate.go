package command

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/workdir"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/jsonvalidate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/lang/marks"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/ui"
)

// validateParallelism bounds how many blocks are checked at once; the
// provider calls are cheap but each holds a gRPC stream.
const validateParallelism = 10

// runValidate is `terrane validate`: it loads the configuration in the
// working directory, applies the language's static checks, then decodes
// every provider, resource and data block against its provider's schema
// (with unknown values for whatever is only known during a run) and asks
// the provider to validate the result.
func runValidate(streams Streams, args []string) int {
	fs := newFlagSet("validate", streams)
	asJSON := fs.Bool("json", false, "Print the result as a machine-readable JSON document")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(streams.Stderr, "Error: terrane validate takes no positional arguments (got %q).\nTo validate a configuration in another directory, use the global -chdir=DIR option.\n", fs.Arg(0))
		return 1
	}
	color := !*noColor && !*asJSON && os.Getenv("NO_COLOR") == ""

	parser := config.NewParser()
	cfg, loadDiags := modules.LoadConfig(parser, ".")
	report := newValidateReport()
	report.addHCL(loadDiags)
	if cfg != nil && !report.diags.HasErrors() {
		validateConfig(context.Background(), cfg, report)
	}
	sources := ui.Sources(parser.Files())
	if *asJSON {
		return writeValidateJSON(streams.Stdout, report, sources)
	}
	return writeValidateHuman(streams, report.diags, sources, color)
}

func writeValidateJSON(w io.Writer, report *validateReport, sources ui.Sources) int {
	doc := jsonvalidate.New(report.diags, sources, report.evaluationOf)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		fmt.Fprintf(w, "Error: cannot encode the validation result: %s\n", err)
		return 1
	}
	fmt.Fprintln(w, string(out))
	if !doc.Valid {
		return 1
	}
	return 0
}

// writeValidateHuman prints warnings on stdout and errors on stderr, as
// Terraform does, then the verdict.
func writeValidateHuman(streams Streams, ds diags.Diagnostics, sources ui.Sources, color bool) int {
	var warnings, errs diags.Diagnostics
	for _, d := range ds {
		if d.Severity == diags.Error {
			errs = append(errs, d)
		} else {
			warnings = append(warnings, d)
		}
	}
	ui.WriteDiagnostics(streams.Stdout, warnings, sources, color)
	ui.WriteDiagnostics(streams.Stderr, errs, sources, color)
	if len(errs) > 0 {
		return 1
	}
	success := "Success!"
	if color {
		success = "\x1b[1;32mSuccess!\x1b[0m"
	}
	if len(warnings) == 0 {
		fmt.Fprintf(streams.Stdout, "%s The configuration is valid.\n", success)
	} else {
		fmt.Fprintf(streams.Stdout, "%s The configuration is valid, but there were some validation warnings as shown above.\n", success)
	}
	return 0
}

// validateReport collects diagnostics from concurrent checks, remembering
// which expression each evaluation diagnostic came from so that the JSON
// output can show the values involved.
type validateReport struct {
	mu          sync.Mutex
	diags       diags.Diagnostics
	evaluations map[*hcl.Range]*jsonvalidate.Evaluation
}

func newValidateReport() *validateReport {
	return &validateReport{evaluations: map[*hcl.Range]*jsonvalidate.Evaluation{}}
}

func (r *validateReport) addHCL(hclDiags hcl.Diagnostics) {
	r.recordEvaluations(hclDiags)
	r.add(diags.Diagnostics{}.Append(hclDiags))
}

// recordEvaluations remembers the expressions behind evaluation
// diagnostics. diags.FromHCL keeps the Subject pointer, which identifies
// the diagnostic again in evaluationOf.
func (r *validateReport) recordEvaluations(hclDiags hcl.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range hclDiags {
		if d.Expression != nil && d.Subject != nil {
			r.evaluations[d.Subject] = &jsonvalidate.Evaluation{Expression: d.Expression, EvalContext: d.EvalContext}
		}
	}
}

func (r *validateReport) add(ds diags.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = r.diags.Append(ds)
}

func (r *validateReport) evaluationOf(d diags.Diagnostic) *jsonvalidate.Evaluation {
	if d.Subject == nil {
		return nil
	}
	return r.evaluations[d.Subject]
}

// validateConfig checks every module of the tree, with the providers that
// can be found.
func validateConfig(ctx context.Context, cfg *config.Config, report *validateReport) {
	running, ds := startValidationProviders(ctx, cfg)
	defer running.close()
	report.add(ds)
	cfg.DeepEach(func(c *config.Config) {
		m := newModuleValidator(c, running, report)
		m.validateValues()
		m.validateBlocks(ctx)
	})
}

// validationProviders are the configuration's providers that could be
// started, with their schemas, and the ones that could not be found.
type validationProviders struct {
	running map[addrs.Provider]*runningProvider
	missing []addrs.Provider
}

type runningProvider struct {
	provider providers.Interface
	schema   providers.GetProviderSchemaResponse
}

func (p *validationProviders) close() {
	for _, rp := range p.running {
		_ = rp.provider.Close()
	}
}

// startValidationProviders finds and starts every provider the
// configuration uses. A provider that is not installed is not an error
// for validate: its blocks are checked without a schema and one warning
// names them all.
func startValidationProviders(ctx context.Context, cfg *config.Config) (*validationProviders, diags.Diagnostics) {
	result := &validationProviders{running: map[addrs.Provider]*runningProvider{}}
	requirements, ds := providerRequirements(cfg)
	addConfiguredProviders(cfg, requirements)
	if ds.HasErrors() || len(requirements) == 0 {
		return result, ds
	}
	cli, more := cliconfig.Load(cliconfig.Environment{WorkingDir: "."})
	ds = ds.Append(more)
	if more.HasErrors() {
		return result, ds
	}
	packages, resolveDiags := discovery.Resolve(ctx, cli, requirements)
	for _, d := range resolveDiags {
		// Resolution errors are the providers not found; they become the
		// single warning below.
		if d.Severity != diags.Error {
			ds = append(ds, d)
		}
	}
	for provider := range requirements {
		if _, found := packages[provider]; !found {
			result.missing = append(result.missing, provider)
		}
	}
	if len(result.missing) > 0 {
		ds = ds.Append(missingProvidersWarning(result.missing))
	}
	ds = ds.Append(result.launch(ctx, packages))
	return result, ds
}

// addConfiguredProviders adds the providers of provider blocks, which need
// no resource to be validated.
func addConfiguredProviders(cfg *config.Config, requirements map[addrs.Provider]discovery.Constraints) {
	cfg.DeepEach(func(c *config.Config) {
		for _, p := range c.Module.ProviderConfigs {
			provider := c.Module.ProviderForLocalName(p.Name)
			if _, ok := requirements[provider]; !ok && !provider.IsZero() && !provider.IsBuiltIn() {
				requirements[provider] = nil
			}
		}
	})
}

func missingProvidersWarning(missing []addrs.Provider) diags.Diagnostic {
	names := make([]string, len(missing))
	for i, p := range missing {
		names[i] = p.String()
	}
	sort.Strings(names)
	return diags.Warnf("Providers not checked",
		"Terrane could not find these providers: %s. The blocks that use them were checked against the language's rules only, not against the providers' schemas. Run \"terrane init\" to install the providers, then run \"terrane validate\" again.",
		strings.Join(names, ", "))
}

// launch starts the resolved providers at once and fetches their schemas
// (from the schema cache when it has them).
func (p *validationProviders) launch(ctx context.Context, packages map[addrs.Provider]discovery.ResolvedPackage) diags.Diagnostics {
	store, err := plugin.DefaultSchemaStore()
	var ds diags.Diagnostics
	if err != nil {
		ds = ds.Append(diags.Warnf("Provider schema cache unavailable", "Schemas will be fetched from each provider: %s.", err))
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for addr, pkg := range packages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rp, more := launchForValidation(ctx, addr, pkg, store)
			mu.Lock()
			defer mu.Unlock()
			ds = ds.Append(more)
			if rp != nil {
				p.running[addr] = rp
			}
		}()
	}
	wg.Wait()
	return ds
}

func launchForValidation(ctx context.Context, addr addrs.Provider, pkg discovery.ResolvedPackage, store *plugin.SchemaStore) (*runningProvider, diags.Diagnostics) {
	where := fmt.Sprintf("provider[%q]", addr.String())
	started, err := workdir.LaunchProvider(ctx, addr, pkg.Executable, store)
	if err != nil {
		return nil, diags.Diagnostics{}.Append(err).WithAddress(where)
	}
	schemas := started.GetProviderSchema(ctx)
	if schemas.Diagnostics.HasErrors() {
		_ = started.Close()
		return nil, schemas.Diagnostics.WithAddress(where)
	}
	return &runningProvider{provider: started, schema: schemas}, schemas.Diagnostics.WithAddress(where)
}

// moduleValidator checks one module of the tree. Values that are only
// known during a run — input variables, resource attributes, count.index,
// each.* — are unknown; locals are evaluated from them once, before the
// blocks are checked in parallel, and only read afterwards.
type moduleValidator struct {
	cfg       *config.Config
	providers *validationProviders
	report    *validateReport
	scope     *lang.Scope

	variables   map[string]cty.Value
	locals      map[string]cty.Value
	evaluating  map[string]bool
	localsReady bool
}

func newModuleValidator(c *config.Config, running *validationProviders, report *validateReport) *moduleValidator {
	m := &moduleValidator{
		cfg: c, providers: running, report: report,
		variables: map[string]cty.Value{}, locals: map[string]cty.Value{}, evaluating: map[string]bool{},
	}
	m.scope = &lang.Scope{BaseDir: c.Module.SourceDir, PureOnly: true, ProviderFunctions: m.providerFunction}
	for name, v := range c.Module.Variables {
		val := cty.UnknownVal(v.Type.Type.WithoutOptionalAttributesDeep())
		if v.Sensitive {
			val = val.Mark(marks.Sensitive)
		}
		m.variables[name] = val
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
		_, d := m.evalExpr(scope, mod.Outputs[name].Expr)
		m.report.addHCL(d)
	}
	for _, name := range sortedKeys(mod.ModuleCalls) {
		call := mod.ModuleCalls[name]
		callScope := m.scope.WithData(&validationData{module: m, counted: call.Count != nil, forEach: call.ForEach != nil}, nil)
		m.report.addHCL(checkExpansion(callScope, call.Count, call.ForEach))
		if call.Config == nil {
			continue
		}
		attrs, _ := call.Config.JustAttributes()
		for _, attrName := range sortedKeys(attrs) {
			_, d := m.evalExpr(callScope, attrs[attrName].Expr)
			m.report.addHCL(d)
		}
	}
}

// localValue evaluates local.NAME on first use, so locals may refer to
// each other in any order.
func (m *moduleValidator) localValue(name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, ok := m.locals[name]; ok {
		return val, nil
	}
	local, declared := m.cfg.Module.Locals[name]
	if !declared {
		return cty.DynamicVal, undeclaredDiag("local value", name, fmt.Sprintf("A local value with the name %q has not been declared.", name), rng)
	}
	if m.localsReady {
		// Evaluation failed earlier and was reported then.
		return cty.DynamicVal, nil
	}
	if m.evaluating[name] {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Self-referencing local value",
			Detail: fmt.Sprintf("Local value local.%s refers to itself, directly or through other local values. Break the cycle by computing one of them without the other.", name), Subject: local.DeclRange.Ptr()}}
	}
	m.evaluating[name] = true
	val, diags := m.evalExpr(m.scope.WithData(&validationData{module: m}, nil), local.Expr)
	delete(m.evaluating, name)
	m.locals[name] = val
	return val, diags
}

// checkExpansion checks count or for_each as far as it is known.
func checkExpansion(scope *lang.Scope, count, forEach hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if count != nil {
		_, _, d := scope.EvalCount(count, true)
		diags = append(diags, d...)
	}
	if forEach != nil {
		_, _, d := scope.EvalForEach(forEach, true)
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
	limit := make(chan struct{}, validateParallelism)
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
	rp := m.providers.running[m.cfg.Module.ProviderForLocalName(p.Name)]
	// A provider block with nothing but meta-arguments has nothing for the
	// provider to check, as in Terraform.
	if rp == nil || isEmptyBody(p.Config) {
		return ds
	}
	block := rp.schema.Provider.Block
	if block == nil {
		block = &schema.Block{}
	}
	val, evalDiags := m.evalBlock(scope, p.Config, block)
	ds = m.appendHCL(ds, evalDiags)
	if evalDiags.HasErrors() {
		return ds
	}
	unmarked, _ := val.UnmarkDeep()
	resp := rp.provider.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: unmarked})
	where := "provider." + p.Addr().String()
	if p.Alias == "" {
		where = "provider." + p.Name
	}
	return append(ds, placeProviderDiags(resp.Diagnostics, scope, p.Config, block, p.DeclRange, m.qualify(where))...)
}

func (m *moduleValidator) validateResource(ctx context.Context, r *config.Resource) diags.Diagnostics {
	scope := m.scope.WithData(&validationData{module: m, counted: r.Count != nil, forEach: r.ForEach != nil}, nil)
	var ds diags.Diagnostics
	ds = m.appendHCL(ds, checkExpansion(scope, r.Count, r.ForEach))
	rp := m.providers.running[r.Provider]
	if rp == nil {
		return ds
	}
	kind, types := "resource type", rp.schema.ResourceTypes
	if r.Mode == addrs.DataResourceMode {
		kind, types = "data source", rp.schema.DataSources
	}
	s, known := types[r.Type]
	if !known || s.Block == nil {
		return append(ds, unsupportedTypeDiag(r, kind, types))
	}
	val, evalDiags := m.evalBlock(scope, r.Config, s.Block)
	ds = m.appendHCL(ds, evalDiags)
	if evalDiags.HasErrors() {
		return ds
	}
	unmarked, _ := val.UnmarkDeep()
	var providerDiags diags.Diagnostics
	if r.Mode == addrs.DataResourceMode {
		providerDiags = rp.provider.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: r.Type, Config: unmarked}).Diagnostics
	} else {
		providerDiags = rp.provider.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{
			TypeName: r.Type, Config: unmarked,
			ClientCapabilities: providers.ClientCapabilities{WriteOnlyAttributesAllowed: true},
		}).Diagnostics
	}
	return append(ds, placeProviderDiags(providerDiags, scope, r.Config, s.Block, r.DeclRange, m.qualify(r.Addr().String()))...)
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
		r := m.cfg.Module.Resources[addr]
		if r == nil || (r.Count != nil || r.ForEach != nil) != keyed {
			continue
		}
		if block := m.resourceSchema(r); block != nil {
			diags = append(diags, block.StaticValidateTraversal(ref.Remaining)...)
		}
	}
	return diags
}

// resourceSchema is the schema of a resource's type, nil when its provider
// is not running or does not have the type.
func (m *moduleValidator) resourceSchema(r *config.Resource) *schema.Block {
	rp := m.providers.running[r.Provider]
	if rp == nil {
		return nil
	}
	types := rp.schema.ResourceTypes
	if r.Mode == addrs.DataResourceMode {
		types = rp.schema.DataSources
	}
	return types[r.Type].Block
}

// appendHCL records the evaluation diagnostics' expressions for the JSON
// output and adds them to ds.
func (m *moduleValidator) appendHCL(ds diags.Diagnostics, hclDiags hcl.Diagnostics) diags.Diagnostics {
	m.report.recordEvaluations(hclDiags)
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
	if r.Mode == addrs.DataResourceMode {
		summary = "Invalid data source"
	}
	detail := fmt.Sprintf("The provider %s does not support %s %q.", r.Provider.ForDisplay(), kind, r.Type)
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

// placeProviderDiags gives a provider's diagnostics a place in the
// configuration: the argument or block their attribute path leads to, or
// else the whole block.
func placeProviderDiags(ds diags.Diagnostics, scope *lang.Scope, body hcl.Body, block *schema.Block, declRange hcl.Range, addr string) diags.Diagnostics {
	if len(ds) == 0 {
		return nil
	}
	expanded, _ := scope.ExpandBlock(body, block.DecoderSpec())
	out := make(diags.Diagnostics, len(ds))
	for i, d := range ds {
		if d.Subject == nil {
			if rng := attributePathRange(expanded, block, d.AttributePath); rng != nil {
				d.Subject = rng
			} else {
				d.Subject = declRange.Ptr()
			}
		}
		if d.Address == "" {
			d.Address = addr
		}
		out[i] = d
	}
	return out
}

// attributePathRange finds where in body the value at path is written:
// the expression of the argument it names, or the header of the innermost
// nested block it reaches. nil when the first step leads nowhere (the
// value came from a default, say).
func attributePathRange(body hcl.Body, block *schema.Block, path cty.Path) *hcl.Range {
	var found *hcl.Range
	for len(path) > 0 {
		step, ok := path[0].(cty.GetAttrStep)
		if !ok {
			return found
		}
		if _, isAttr := block.Attributes[step.Name]; isAttr {
			content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: step.Name}}})
			if attr := content.Attributes[step.Name]; attr != nil {
				rng := attr.Expr.Range()
				return &rng
			}
			return found
		}
		nested := block.BlockTypes[step.Name]
		if nested == nil {
			return found
		}
		chosen, rest := chooseNestedBlock(body, step.Name, nested, path[1:])
		if chosen == nil {
			return found
		}
		found = chosen.DefRange.Ptr()
		body, block, path = chosen.Body, &nested.Block, rest
	}
	return found
}

// chooseNestedBlock picks the block of type name that the index step at
// the start of rest selects (by position for lists, by label for maps),
// and returns the path after it. For sets, whose elements have no stable
// position, it picks the block only when there is one.
func chooseNestedBlock(body hcl.Body, name string, nested *schema.NestedBlock, rest cty.Path) (*hcl.Block, cty.Path) {
	header := hcl.BlockHeaderSchema{Type: name}
	if nested.Nesting == schema.NestingMap {
		header.LabelNames = []string{"key"}
	}
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{header}})
	blocks := content.Blocks
	if len(blocks) == 0 {
		return nil, nil
	}
	index, indexed := cty.NilVal, false
	if len(rest) > 0 {
		if step, ok := rest[0].(cty.IndexStep); ok {
			index, indexed, rest = step.Key, true, rest[1:]
		}
	}
	if !indexed {
		// The path names the block type as a whole (a count of blocks, say):
		// the first block shows where they are written.
		return blocks[0], rest
	}
	if !index.IsKnown() || index.IsNull() {
		return nil, nil
	}
	switch {
	case nested.Nesting == schema.NestingList && index.Type() == cty.Number:
		i, accuracy := index.AsBigFloat().Int64()
		if accuracy == 0 && i >= 0 && int(i) < len(blocks) {
			return blocks[i], rest
		}
	case nested.Nesting == schema.NestingMap && index.Type() == cty.String:
		for _, b := range blocks {
			if b.Labels[0] == index.AsString() {
				return b, rest
			}
		}
	case len(blocks) == 1:
		return blocks[0], rest
	}
	return nil, nil
}

// isEmptyBody reports whether a block body sets nothing.
func isEmptyBody(body hcl.Body) bool {
	if body == nil {
		return true
	}
	_, diags := body.Content(&hcl.BodySchema{})
	return !diags.HasErrors()
}

// providerFunction makes provider::NAME::FUNCTION calls type-check against
// the provider's declared signature; the result is unknown because
// validate runs no provider code that could depend on real values. Calls
// to providers that could not be started accept anything.
func (m *moduleValidator) providerFunction(ref lang.ProviderFunctionRef) (function.Function, bool, hcl.Diagnostics) {
	rp := m.providers.running[m.cfg.Module.ProviderForLocalName(ref.ProviderName)]
	if rp == nil {
		return function.New(&function.Spec{
			VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true},
			Type:     function.StaticReturnType(cty.DynamicPseudoType),
			Impl:     func([]cty.Value, cty.Type) (cty.Value, error) { return cty.DynamicVal, nil },
		}), true, nil
	}
	decl, found := rp.schema.Functions[ref.Function]
	if !found {
		return function.Function{}, false, nil
	}
	spec := &function.Spec{
		Type: function.StaticReturnType(decl.ReturnType),
		Impl: func(_ []cty.Value, ret cty.Type) (cty.Value, error) { return cty.UnknownVal(ret), nil },
	}
	for _, p := range decl.Parameters {
		spec.Params = append(spec.Params, functionParameter(p))
	}
	if decl.VariadicParameter != nil {
		variadic := functionParameter(*decl.VariadicParameter)
		spec.VarParam = &variadic
	}
	return function.New(spec), true, nil
}

func functionParameter(p providers.FunctionParam) function.Parameter {
	return function.Parameter{Name: p.Name, Type: p.Type, AllowNull: p.AllowNullValue, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}
}

// validationData answers references inside one block of the module being
// validated.
type validationData struct {
	module  *moduleValidator
	counted bool
	forEach bool
}

func (d *validationData) GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, ok := d.module.variables[addr.Name]; ok {
		return val, nil
	}
	return cty.DynamicVal, undeclaredDiag("input variable", addr.Name, fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", addr.Name, addr.Name), rng)
}

func (d *validationData) GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return d.module.localValue(addr.Name, rng)
}

func (d *validationData) GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.module.cfg.Module.ModuleCalls[addr.Name]; ok {
		return cty.DynamicVal, nil
	}
	return cty.DynamicVal, undeclaredDiag("module", addr.Name, fmt.Sprintf("No module call named %q is declared in %s.", addr.Name, d.moduleName()), rng)
}

// GetResource returns an unknown object of the resource type's schema, so
// that references to attributes the type does not have are errors; counted
// and for_each resources are unknown as a whole.
func (d *validationData) GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	r, ok := d.module.cfg.Module.Resources[addr]
	if !ok {
		what := "resource"
		if addr.Mode == addrs.DataResourceMode {
			what = "data resource"
		}
		return cty.DynamicVal, undeclaredDiag(what, addr.String(), fmt.Sprintf("A %s %q %q has not been declared in %s.", what, addr.Type, addr.Name, d.moduleName()), rng)
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
	return (&consoleData{}).GetCountAttr(addr, rng)
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
	return (&consoleData{}).GetForEachAttr(addr, rng)
}

func (d *validationData) GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch addr.Name {
	case "module":
		return cty.StringVal(d.module.cfg.Module.SourceDir), nil
	case "root":
		return cty.StringVal(d.module.cfg.Root.Module.SourceDir), nil
	}
	return (&consoleData{}).GetPathAttr(addr, rng)
}

func (d *validationData) GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return (&consoleData{}).GetTerraformAttr(addr, rng)
}

func (d *validationData) moduleName() string {
	if d.module.cfg.Path.IsRoot() {
		return "the root module"
	}
	return d.module.cfg.Path.String()
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
