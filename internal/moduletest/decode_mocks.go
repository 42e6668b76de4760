package moduletest

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

var (
	mockProviderSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "for_each"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "mock_resource", LabelNames: []string{"type"}},
			{Type: "mock_data", LabelNames: []string{"type"}},
			{Type: "override_resource"},
			{Type: "override_data"},
		},
	}
	mockResourceSchema     = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "defaults"}}}
	overrideResourceSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "target", Required: true}, {Name: "values"}}}
	overrideModuleSchema   = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "target", Required: true}, {Name: "outputs"}}}
)

func decodeMockProvider(block *hcl.Block) (*MockProvider, diags.Diagnostics) {
	content, hd := block.Body.Content(mockProviderSchema)
	ds := diags.Diagnostics{}.Append(hd)
	m := &MockProvider{Name: block.Labels[0], DeclRange: block.DefRange}
	if !hclsyntax.ValidIdentifier(m.Name) {
		return nil, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid provider local name",
			Detail: fmt.Sprintf("%q is not a valid provider local name: it must start with a letter and contain only letters, digits, underscores and dashes.", m.Name), Subject: block.LabelRanges[0].Ptr()})
	}
	if attr, ok := content.Attributes["alias"]; ok {
		ds = ds.Append(gohcl.DecodeExpression(attr.Expr, nil, &m.Alias))
		if !ds.HasErrors() && !hclsyntax.ValidIdentifier(m.Alias) {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid mock provider configuration alias",
				Detail: "An alias must be a valid name. A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.", Subject: attr.Expr.Range().Ptr()})
		}
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		m.ForEach = attr.Expr
		if m.Alias == "" {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: `Alias required when using "for_each"`,
				Detail: "The for_each argument is allowed only for provider configurations with an alias.", Subject: attr.Expr.Range().Ptr()})
		}
	}
	seen := map[string]hcl.Range{}
	for _, inner := range content.Blocks {
		switch inner.Type {
		case "mock_resource", "mock_data":
			r, rds := decodeMockResource(inner)
			ds = ds.Append(rds)
			if r == nil {
				continue
			}
			key := inner.Type + "." + r.Type
			if first, dup := seen[key]; dup {
				ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: fmt.Sprintf("Duplicated `%s` block", inner.Type),
					Detail: fmt.Sprintf("`%s` is already defined in this `mock_provider` block, at %s.", key, first), Subject: inner.DefRange.Ptr()})
				continue
			}
			seen[key] = inner.DefRange
			m.Mocks = append(m.Mocks, r)
		case "override_resource", "override_data":
			o, ods := decodeOverrideResource(inner)
			ds = ds.Append(ods)
			if o != nil {
				m.Overrides = append(m.Overrides, o)
			}
		}
	}
	ds = ds.Append(duplicateOverrides(m.Overrides, nil))
	if ds.HasErrors() {
		return nil, ds
	}
	return m, ds
}

func decodeMockResource(block *hcl.Block) (*MockResource, diags.Diagnostics) {
	content, hd := block.Body.Content(mockResourceSchema)
	ds := diags.Diagnostics{}.Append(hd)
	r := &MockResource{Mode: addrs.ManagedResourceMode, Type: block.Labels[0], DeclRange: block.DefRange}
	if block.Type == "mock_data" {
		r.Mode = addrs.DataResourceMode
	}
	if attr, ok := content.Attributes["defaults"]; ok {
		var od diags.Diagnostics
		r.Defaults, od = staticObject(attr)
		ds = ds.Append(od)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return r, ds
}

func decodeOverrideResource(block *hcl.Block) (*OverrideResource, diags.Diagnostics) {
	content, hd := block.Body.Content(overrideResourceSchema)
	ds := diags.Diagnostics{}.Append(hd)
	o := &OverrideResource{DeclRange: block.DefRange, Mode: addrs.ManagedResourceMode}
	if block.Type == "override_data" {
		o.Mode = addrs.DataResourceMode
	}
	if attr, ok := content.Attributes["target"]; ok {
		var td diags.Diagnostics
		o.Target, o.Addr, td = configResourceTarget(attr)
		ds = ds.Append(td)
	}
	if attr, ok := content.Attributes["values"]; ok {
		var vd diags.Diagnostics
		o.Values, vd = staticObject(attr)
		ds = ds.Append(vd)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return o, ds
}

func modeMismatch(o *OverrideResource) diags.Diagnostic {
	targetMode := "data"
	if o.Addr.Resource.Mode == addrs.ManagedResourceMode {
		targetMode = "resource"
	}
	return diags.Diagnostic{Severity: diags.Error, Summary: fmt.Sprintf("Unsupported `%s` target in `%s` block", targetMode, o.blockName()),
		Detail:  fmt.Sprintf("Target `%s` is `%s` block itself and cannot be overridden with `%s`.", o.Addr, targetMode, o.blockName()),
		Subject: o.Target.SourceRange().Ptr()}
}

// configResourceTarget reads the target of an override: a resource in a
// module, without instance keys, since every instance is overridden.
func configResourceTarget(attr *hcl.Attribute) (hcl.Traversal, addrs.ConfigResource, diags.Diagnostics) {
	traversal, hd := hcl.AbsTraversalForExpr(attr.Expr)
	ds := diags.Diagnostics{}.Append(hd)
	if hd.HasErrors() {
		return nil, addrs.ConfigResource{}, ds
	}
	inst, hd := addrs.ParseAbsResourceInstance(traversal)
	ds = ds.Append(hd)
	if hd.HasErrors() {
		return nil, addrs.ConfigResource{}, ds
	}
	if !noInstanceKeys(inst.Module) || inst.Resource.Key != addrs.NoKey {
		return nil, addrs.ConfigResource{}, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid override target",
			Detail:  fmt.Sprintf("%s names one instance, but an override replaces every instance of a resource and of the modules it is in. Remove the instance keys.", inst),
			Subject: traversal.SourceRange().Ptr()})
	}
	return traversal, addrs.ConfigResource{Module: inst.Module.Module(), Resource: inst.Resource.Resource}, ds
}

func noInstanceKeys(mi addrs.ModuleInstance) bool {
	for _, step := range mi {
		if step.Key != addrs.NoKey {
			return false
		}
	}
	return true
}

func decodeOverrideModule(block *hcl.Block) (*OverrideModule, diags.Diagnostics) {
	content, hd := block.Body.Content(overrideModuleSchema)
	ds := diags.Diagnostics{}.Append(hd)
	o := &OverrideModule{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["target"]; ok {
		traversal, td := hcl.AbsTraversalForExpr(attr.Expr)
		ds = ds.Append(td)
		if !td.HasErrors() {
			mi, md := addrs.ParseModuleInstance(traversal)
			ds = ds.Append(md)
			switch {
			case md.HasErrors():
			case len(mi) == 0 || !noInstanceKeys(mi):
				ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid override target",
					Detail:  "The target of override_module is a module call, such as module.network, without instance keys: every instance of the call is overridden.",
					Subject: traversal.SourceRange().Ptr()})
			default:
				o.Target, o.Addr = traversal, mi.Module()
			}
		}
	}
	if attr, ok := content.Attributes["outputs"]; ok {
		var od diags.Diagnostics
		o.Outputs, od = staticObject(attr)
		ds = ds.Append(od)
	}
	if ds.HasErrors() {
		return nil, ds
	}
	return o, ds
}

// staticObject evaluates an object written with no references, as mock
// and override values are.
func staticObject(attr *hcl.Attribute) (map[string]cty.Value, diags.Diagnostics) {
	val, hd := attr.Expr.Value(nil)
	ds := diags.Diagnostics{}.Append(hd)
	if hd.HasErrors() {
		return nil, ds
	}
	if !val.Type().IsObjectType() {
		return nil, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Object expected",
			Detail: fmt.Sprintf("The attribute `%s` must be an object.", attr.Name), Subject: attr.Range.Ptr()})
	}
	return val.AsValueMap(), ds
}

// duplicateOverrides reports two overrides of one target in one scope (a
// file, a run, a mock provider).
func duplicateOverrides(resources []*OverrideResource, modules []*OverrideModule) diags.Diagnostics {
	var ds diags.Diagnostics
	seen := map[string]bool{}
	for _, o := range resources {
		key := o.Addr.String()
		if seen[key] {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: fmt.Sprintf("Duplicated `%s` block", o.blockName()),
				Detail:  fmt.Sprintf("It is not allowed to have multiple `%s` blocks with the same target: `%s`.", o.blockName(), key),
				Subject: o.Target.SourceRange().Ptr()})
		}
		seen[key] = true
	}
	for _, o := range modules {
		key := o.Addr.String()
		if seen["module "+key] {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Duplicated `override_module` block",
				Detail:  fmt.Sprintf("It is not allowed to have multiple `override_module` blocks with the same target: `%s`.", key),
				Subject: o.Target.SourceRange().Ptr()})
		}
		seen["module "+key] = true
	}
	return ds
}
