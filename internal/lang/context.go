package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// EvalContext builds the hcl.EvalContext that gives values to the given
// traversals (the Variables of an expression or body) and functions to the
// given provider function calls. Only what is referenced is fetched from
// Data, which keeps evaluation of large expansions cheap.
func (s *Scope) EvalContext(traversals []hcl.Traversal, calls []ProviderFunctionRef) (*hcl.EvalContext, hcl.Diagnostics) {
	functions, diags := s.functionsFor(calls)
	b := contextBuilder{scope: s, objects: map[string]map[string]cty.Value{}, resources: map[string]map[string]map[string]cty.Value{}}
	for _, traversal := range traversals {
		ref, refDiags := addrs.ParseRef(traversal)
		diags = append(diags, refDiags...)
		if ref != nil {
			diags = append(diags, b.add(traversal.RootName(), ref)...)
		}
	}
	return &hcl.EvalContext{Variables: b.variables(), Functions: functions}, diags
}

// contextBuilder collects the values of references, grouped the way the
// language exposes them: var.x under "var", aws_instance.web under
// "aws_instance", data.http.x under "data" and so on.
type contextBuilder struct {
	scope *Scope
	// objects maps a root name (var, local, module, count, each, path,
	// terraform, tofu) to the attributes fetched for it.
	objects map[string]map[string]cty.Value
	// resources maps a root name (a managed resource type, "data",
	// "ephemeral" or "resource") to type → name → value.
	resources map[string]map[string]map[string]cty.Value
	self      *cty.Value
}

func (b *contextBuilder) add(rootName string, ref *addrs.Reference) hcl.Diagnostics {
	data, rng := b.scope.Data, ref.SourceRange
	switch subject := ref.Subject.(type) {
	case addrs.InputVariable:
		return b.addObjectAttr("var", subject.Name, func() (cty.Value, hcl.Diagnostics) { return data.GetInputVariable(subject, rng) })
	case addrs.LocalValue:
		return b.addObjectAttr("local", subject.Name, func() (cty.Value, hcl.Diagnostics) { return data.GetLocalValue(subject, rng) })
	case addrs.ModuleCall:
		return b.addModule(subject, rng)
	case addrs.ModuleCallInstance:
		return b.addModule(subject.Call, rng)
	case addrs.ModuleCallInstanceOutput:
		return b.addModule(subject.Call.Call, rng)
	case addrs.Resource:
		return b.addResource(rootName, subject, rng)
	case addrs.ResourceInstance:
		return b.addResource(rootName, subject.Resource, rng)
	case addrs.CountAttr:
		return b.addObjectAttr("count", subject.Name, func() (cty.Value, hcl.Diagnostics) { return data.GetCountAttr(subject, rng) })
	case addrs.ForEachAttr:
		return b.addObjectAttr("each", subject.Name, func() (cty.Value, hcl.Diagnostics) { return data.GetForEachAttr(subject, rng) })
	case addrs.PathAttr:
		return b.addObjectAttr("path", subject.Name, func() (cty.Value, hcl.Diagnostics) { return data.GetPathAttr(subject, rng) })
	case addrs.TerraformAttr:
		root := "terraform"
		if subject.Tofu {
			root = "tofu"
		}
		return b.addObjectAttr(root, subject.Name, func() (cty.Value, hcl.Diagnostics) { return data.GetTerraformAttr(subject, rng) })
	}
	if ref.Subject == addrs.Self {
		return b.addSelf(rng)
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported reference",
		Detail:   fmt.Sprintf("A reference to %s cannot be used in this context.", ref.Subject),
		Subject:  rng.Ptr(),
	}}
}

func (b *contextBuilder) addObjectAttr(root, name string, fetch func() (cty.Value, hcl.Diagnostics)) hcl.Diagnostics {
	attrs := b.objects[root]
	if attrs == nil {
		attrs = map[string]cty.Value{}
		b.objects[root] = attrs
	}
	if _, done := attrs[name]; done {
		return nil
	}
	val, diags := fetch()
	attrs[name] = val
	return diags
}

func (b *contextBuilder) addModule(call addrs.ModuleCall, rng hcl.Range) hcl.Diagnostics {
	return b.addObjectAttr("module", call.Name, func() (cty.Value, hcl.Diagnostics) { return b.scope.Data.GetModule(call, rng) })
}

func (b *contextBuilder) addResource(rootName string, resource addrs.Resource, rng hcl.Range) hcl.Diagnostics {
	// resource.TYPE.NAME, data.TYPE.NAME, ephemeral.TYPE.NAME and
	// TYPE.NAME each appear under the root name the expression used.
	group := rootName
	if group != "data" && group != "resource" && group != "ephemeral" {
		group = "" // managed resources are grouped by type at the top level
	}
	byType := b.resources[group]
	if byType == nil {
		byType = map[string]map[string]cty.Value{}
		b.resources[group] = byType
	}
	byName := byType[resource.Type]
	if byName == nil {
		byName = map[string]cty.Value{}
		byType[resource.Type] = byName
	}
	if _, done := byName[resource.Name]; done {
		return nil
	}
	val, diags := b.scope.Data.GetResource(resource, rng)
	byName[resource.Name] = val
	return diags
}

func (b *contextBuilder) addSelf(rng hcl.Range) hcl.Diagnostics {
	if b.self != nil {
		return nil
	}
	instance, ok := b.scope.SelfAddr.(addrs.ResourceInstance)
	if !ok {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Invalid "self" reference`,
			Detail:   `The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`,
			Subject:  rng.Ptr(),
		}}
	}
	whole, diags := b.scope.Data.GetResource(instance.Resource, rng)
	self := whole
	if instance.Key != addrs.NoKey && whole.IsKnown() && !whole.IsNull() {
		var indexDiags hcl.Diagnostics
		self, indexDiags = hcl.Index(whole, instance.Key.Value(), &rng)
		diags = append(diags, indexDiags...)
	}
	b.self = &self
	return diags
}

func (b *contextBuilder) variables() map[string]cty.Value {
	vars := make(map[string]cty.Value, len(b.objects)+len(b.resources)+1)
	for root, attrs := range b.objects {
		vars[root] = cty.ObjectVal(attrs)
	}
	for group, byType := range b.resources {
		typeObjects := make(map[string]cty.Value, len(byType))
		for typeName, byName := range byType {
			typeObjects[typeName] = cty.ObjectVal(byName)
		}
		if group == "" {
			for typeName, obj := range typeObjects {
				vars[typeName] = obj
			}
			continue
		}
		vars[group] = cty.ObjectVal(typeObjects)
	}
	if b.self != nil {
		vars["self"] = *b.self
	}
	return vars
}

// hclTraversalFromString parses an address string as a traversal whose
// steps all carry rng, for diagnostics that point at the original reference.
func hclTraversalFromString(s string, rng hcl.Range) (hcl.Traversal, hcl.Diagnostics) {
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(s), rng.Filename, rng.Start)
	return traversal, diags
}
