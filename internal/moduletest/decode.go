package moduletest

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// The schemas of a test file, as OpenTofu reads them. Content() reports
// any other block or argument as unsupported, naming it, so nothing in a
// test file is silently ignored.
var (
	fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "run", LabelNames: []string{"name"}},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variables"},
		{Type: "override_resource"},
		{Type: "override_data"},
		{Type: "override_module"},
		{Type: "mock_provider", LabelNames: []string{"name"}},
	}}
	runSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "command"}, {Name: "providers"}, {Name: "expect_failures"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "plan_options"}, {Type: "assert"}, {Type: "variables"}, {Type: "module"},
			{Type: "override_resource"}, {Type: "override_data"}, {Type: "override_module"},
		},
	}
	planOptionsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "mode"}, {Name: "refresh"}, {Name: "replace"}, {Name: "target"},
	}}
	runModuleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}, {Name: "version"}}}
)

// decodeFile reads a parsed test file's body.
func decodeFile(name string, body hcl.Body) *File {
	f := &File{Name: name, Providers: map[addrs.LocalProviderConfig]*config.Provider{}, MockProviders: map[addrs.LocalProviderConfig]*MockProvider{}}
	content, hd := body.Content(fileSchema)
	ds := diags.Diagnostics{}.Append(hd)
	var variablesRange *hcl.Range
	for _, block := range content.Blocks {
		switch block.Type {
		case "run":
			run, rds := decodeRun(block)
			ds = ds.Append(rds)
			if run != nil {
				run.Index = len(f.Runs)
				f.Runs = append(f.Runs, run)
			}
		case "variables":
			if variablesRange != nil {
				ds = ds.Append(duplicateBlock("variables", "test file", *variablesRange, block))
				continue
			}
			variablesRange = block.DefRange.Ptr()
			f.Variables, hd = variablesOf(block)
			ds = ds.Append(hd)
		case "provider":
			p, hd := config.DecodeProviderBlock(block)
			ds = ds.Append(hd)
			if p != nil {
				f.Providers[p.Addr()] = p
			}
		case "override_resource", "override_data":
			o, ods := decodeOverrideResource(block)
			ds = ds.Append(ods)
			if o != nil {
				f.Overrides = append(f.Overrides, o)
			}
		case "override_module":
			o, ods := decodeOverrideModule(block)
			ds = ds.Append(ods)
			if o != nil {
				f.ModuleMocks = append(f.ModuleMocks, o)
			}
		case "mock_provider":
			ds = ds.Append(f.addMockProvider(block))
		}
	}
	// Overrides of one target twice are reported by each run (see
	// validateRun), as OpenTofu reports them.
	f.Diagnostics = ds
	return f
}

func (f *File) addMockProvider(block *hcl.Block) diags.Diagnostics {
	m, ds := decodeMockProvider(block)
	if m == nil {
		return ds
	}
	if prev, ok := f.MockProviders[m.Addr()]; ok {
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Duplicated `mock_provider` block",
			Detail:  fmt.Sprintf("It is not allowed to have multiple `mock_provider` blocks with the same address: `%s` (the first is at %s).", m.Addr(), prev.DeclRange),
			Subject: block.DefRange.Ptr()})
	}
	f.MockProviders[m.Addr()] = m
	return ds
}

func duplicateBlock(blockType, within string, first hcl.Range, block *hcl.Block) diags.Diagnostic {
	return diags.Diagnostic{Severity: diags.Error, Summary: fmt.Sprintf("Multiple %q blocks", blockType),
		Detail:  fmt.Sprintf("This %s already has a %s block defined at %s.", within, blockType, first),
		Subject: block.DefRange.Ptr()}
}

func variablesOf(block *hcl.Block) (map[string]hcl.Expression, hcl.Diagnostics) {
	attrs, hd := block.Body.JustAttributes()
	vars := make(map[string]hcl.Expression, len(attrs))
	for name, attr := range attrs {
		vars[name] = attr.Expr
	}
	return vars, hd
}

// decodeRun reads a run block; nil when it cannot be run at all.
func decodeRun(block *hcl.Block) (*Run, diags.Diagnostics) {
	content, hd := block.Body.Content(runSchema)
	ds := diags.Diagnostics{}.Append(hd)
	run := &Run{Name: block.Labels[0], DeclRange: block.DefRange, Variables: map[string]hcl.Expression{},
		Options: RunOptions{Refresh: true}}
	if !hclsyntax.ValidIdentifier(run.Name) {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid run block name",
			Detail:  "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.",
			Subject: block.LabelRanges[0].Ptr()})
	}
	var seen = map[string]hcl.Range{}
	for _, inner := range content.Blocks {
		if first, dup := seen[inner.Type]; dup && inner.Type != "assert" && !strings.HasPrefix(inner.Type, "override_") {
			ds = ds.Append(duplicateBlock(inner.Type, "run block", first, inner))
			continue
		}
		seen[inner.Type] = inner.DefRange
		ds = ds.Append(run.decodeBlock(inner))
	}
	ds = ds.Append(run.decodeAttributes(content.Attributes))
	if ds.HasErrors() {
		return nil, ds
	}
	return run, ds
}

func (run *Run) decodeBlock(block *hcl.Block) diags.Diagnostics {
	var ds diags.Diagnostics
	switch block.Type {
	case "assert":
		rule, hd := config.DecodeCheckRule(block)
		ds = ds.Append(hd)
		if rule != nil {
			run.Asserts = append(run.Asserts, rule)
		}
	case "plan_options":
		ds = ds.Append(run.Options.decode(block))
	case "variables":
		var hd hcl.Diagnostics
		run.Variables, hd = variablesOf(block)
		ds = ds.Append(hd)
	case "module":
		run.Module, ds = decodeRunModule(block)
	case "override_resource", "override_data":
		o, ods := decodeOverrideResource(block)
		ds = ds.Append(ods)
		if o != nil {
			run.Overrides = append(run.Overrides, o)
		}
	case "override_module":
		o, ods := decodeOverrideModule(block)
		ds = ds.Append(ods)
		if o != nil {
			run.ModuleMocks = append(run.ModuleMocks, o)
		}
	}
	return ds
}

func (run *Run) decodeAttributes(attrs hcl.Attributes) diags.Diagnostics {
	var ds diags.Diagnostics
	if attr, ok := attrs["command"]; ok {
		switch hcl.ExprAsKeyword(attr.Expr) {
		case "apply":
			run.Command = ApplyCommand
		case "plan":
			run.Command = PlanCommand
		default:
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: `Invalid "command" keyword`,
				Detail:  `The "command" argument requires one of the following keywords without quotes: apply or plan.`,
				Subject: attr.Expr.Range().Ptr()})
		}
	}
	if attr, ok := attrs["providers"]; ok {
		passed, hd := config.DecodePassedProviders(attr)
		ds = ds.Append(hd)
		run.Providers, run.HasProviders = passed, true
	}
	if attr, ok := attrs["expect_failures"]; ok {
		failures, eds := decodeExpectFailures(attr)
		ds = ds.Append(eds)
		run.ExpectFailures = failures
	}
	return ds
}

func (o *RunOptions) decode(block *hcl.Block) diags.Diagnostics {
	content, hd := block.Body.Content(planOptionsSchema)
	ds := diags.Diagnostics{}.Append(hd)
	if attr, ok := content.Attributes["mode"]; ok {
		switch hcl.ExprAsKeyword(attr.Expr) {
		case "refresh-only":
			o.RefreshOnly = true
		case "normal":
		default:
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: `Invalid "mode" keyword`,
				Detail:  `The "mode" argument requires one of the following keywords without quotes: normal or refresh-only`,
				Subject: attr.Expr.Range().Ptr()})
		}
	}
	if attr, ok := content.Attributes["refresh"]; ok {
		ds = ds.Append(gohcl.DecodeExpression(attr.Expr, nil, &o.Refresh))
		if !o.Refresh && o.RefreshOnly {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Incompatible plan options",
				Detail:  `The "refresh" option cannot be set to false when running a test in "refresh-only" mode.`,
				Subject: attr.Range.Ptr()})
		}
	}
	for name, target := range map[string]*[]hcl.Traversal{"replace": &o.Replace, "target": &o.Target} {
		if attr, ok := content.Attributes[name]; ok {
			list, ld := traversalList(attr)
			ds = ds.Append(ld)
			*target = list
		}
	}
	return ds
}

// traversalList reads a list of static references, as replace, target and
// expect_failures are written.
func traversalList(attr *hcl.Attribute) ([]hcl.Traversal, hcl.Diagnostics) {
	exprs, hd := hcl.ExprList(attr.Expr)
	var out []hcl.Traversal
	for _, expr := range exprs {
		traversal, td := hcl.AbsTraversalForExpr(expr)
		hd = append(hd, td...)
		if !td.HasErrors() {
			out = append(out, traversal)
		}
	}
	return out, hd
}

func decodeRunModule(block *hcl.Block) (*RunModule, diags.Diagnostics) {
	content, hd := block.Body.Content(runModuleSchema)
	ds := diags.Diagnostics{}.Append(hd)
	m := &RunModule{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["version"]; ok {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Module versions are not supported in run blocks",
			Detail:  "Terrane loads a run block's module from a local directory only, so the \"version\" argument, which selects a registry module's version, cannot be used. Put the module in a directory beside the tests and give its path as the source.",
			Subject: attr.Range.Ptr()})
	}
	attr, ok := content.Attributes["source"]
	if !ok {
		return nil, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: `Missing "source" attribute for module block`,
			Detail:  "You must specify a source attribute when executing alternate modules during test executions.",
			Subject: block.DefRange.Ptr()})
	}
	m.SourceRange = attr.Range
	ds = ds.Append(gohcl.DecodeExpression(attr.Expr, nil, &m.Source))
	if !ds.HasErrors() && !isLocalSource(m.Source) {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid module source address",
			Detail:  fmt.Sprintf("Terrane loads a run block's module from a local directory only, and %q is not a local path. Give a path starting with ./ or ../, relative to the directory tests run in.", m.Source),
			Subject: attr.Expr.Range().Ptr()})
	}
	return m, ds
}

func isLocalSource(source string) bool {
	for _, prefix := range []string{"./", "../", ".\\", "..\\"} {
		if len(source) >= len(prefix) && source[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
