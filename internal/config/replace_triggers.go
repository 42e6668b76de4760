package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// decodeReplaceTriggeredBy reads lifecycle's replace_triggered_by. Each
// element names exactly one managed resource or resource instance,
// optionally followed by an attribute path, and may use count.index or
// each.key only as an index: OpenTofu decides whether to replace from the
// planned change of the object named, so anything else (a variable, a
// local, an expression computing a value) could never trigger and is an
// error rather than a setting that silently does nothing.
func decodeReplaceTriggeredBy(attr *hcl.Attribute) ([]hcl.Expression, hcl.Diagnostics) {
	isJSON := hcljson.IsJSONExpression(attr.Expr)
	exprs, diags := hcl.ExprList(attr.Expr)
	for i, expr := range exprs {
		if isJSON {
			native, jsonDiags := jsonStringExpression(expr)
			if diags = append(diags, jsonDiags...); jsonDiags.HasErrors() {
				continue
			}
			expr, exprs[i] = native, native
		}
		diags = append(diags, checkTriggerExpression(expr)...)
	}
	return exprs, diags
}

// jsonStringExpression reads a JSON string holding an expression, as a
// .tf.json file writes each element of replace_triggered_by.
func jsonStringExpression(expr hcl.Expression) (hcl.Expression, hcl.Diagnostics) {
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	if val.IsNull() || !val.IsKnown() || val.Type() != cty.String {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid replace_triggered_by expression",
			Detail: "In JSON, each element of replace_triggered_by is a string holding a resource reference.", Subject: expr.Range().Ptr()}}
	}
	rng := expr.Range()
	return hclsyntax.ParseExpression([]byte(val.AsString()), rng.Filename, rng.Start)
}

// checkTriggerExpression applies OpenTofu's rules to one element of
// replace_triggered_by.
func checkTriggerExpression(expr hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	invalid := func(summary, detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: expr.Range().Ptr()})
	}
	resources := 0
	for _, traversal := range expr.Variables() {
		ref, refDiags := addrs.ParseRef(traversal)
		if refDiags.HasErrors() {
			for _, d := range refDiags {
				d.Subject = expr.Range().Ptr()
			}
			return append(diags, refDiags...)
		}
		switch subject := ref.Subject.(type) {
		case addrs.Resource, addrs.ResourceInstance:
			resources++
			if triggerResource(subject).Mode != addrs.ManagedResourceMode {
				invalid("Invalid reference in replace_triggered_by expression",
					"Only managed resources can trigger a replacement: a data source or ephemeral resource is never updated or replaced.")
			}
		case addrs.ForEachAttr:
			if subject.Name != "key" {
				invalid("Invalid each reference in replace_triggered_by expression", "Only each.key may be used in replace_triggered_by.")
			}
		case addrs.CountAttr:
			if subject.Name != "index" {
				invalid("Invalid count reference in replace_triggered_by expression", "Only count.index may be used in replace_triggered_by.")
			}
		default:
			invalid("Invalid reference in replace_triggered_by expression", "Only resources, count.index, and each.key may be used in replace_triggered_by.")
		}
	}
	switch {
	case resources == 0:
		invalid("Invalid replace_triggered_by expression", "Missing resource reference in replace_triggered_by expression.")
	case resources > 1:
		invalid("Invalid replace_triggered_by expression", "Multiple resource references in replace_triggered_by expression.")
	}
	return diags
}

// triggerResource is the resource a replace_triggered_by reference names.
func triggerResource(subject addrs.Referenceable) addrs.Resource {
	if inst, ok := subject.(addrs.ResourceInstance); ok {
		return inst.Resource
	}
	return subject.(addrs.Resource)
}

// ReplaceTriggerReference turns one element of replace_triggered_by into the
// reference it stands for, putting key in place of count.index or each.key
// in an index, as OpenTofu does. A nil key leaves such an index out of the
// reference: enough to know which resource it names.
func ReplaceTriggerReference(expr hcl.Expression, key addrs.InstanceKey) (*addrs.Reference, hcl.Diagnostics) {
	traversal, ds := triggerTraversal(expr, key)
	if ds.HasErrors() {
		return nil, ds
	}
	ref, hds := addrs.ParseRef(traversal)
	return ref, append(ds, hds...)
}

func triggerTraversal(expr hcl.Expression, key addrs.InstanceKey) (hcl.Traversal, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return e.Traversal, nil
	case *hclsyntax.RelativeTraversalExpr:
		source, ds := triggerTraversal(e.Source, key)
		return append(append(hcl.Traversal{}, source...), e.Traversal...), ds
	case *hclsyntax.IndexExpr:
		collection, ds := triggerTraversal(e.Collection, key)
		if ds.HasErrors() {
			return nil, ds
		}
		index, ids := triggerIndex(e.Key, key)
		if ds = append(ds, ids...); ids.HasErrors() || index == nil {
			return collection, ds
		}
		return append(append(hcl.Traversal{}, collection...), *index), ds
	}
	return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid replace_triggered_by expression",
		Detail:  "Unexpected expression found in replace_triggered_by.",
		Subject: expr.Range().Ptr()}}
}

// triggerIndex is the index step count.index or each.key stands for in
// the instance with key; nil without a key.
func triggerIndex(expr hcl.Expression, key addrs.InstanceKey) (*hcl.TraverseIndex, hcl.Diagnostics) {
	invalid := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid index expression",
		Detail: "Only constant values, count.index or each.key are allowed in index expressions.", Subject: expr.Range().Ptr()}}
	traversal, hds := hcl.AbsTraversalForExpr(expr)
	if hds.HasErrors() || len(traversal) != 2 {
		return nil, invalid
	}
	attr, ok := traversal[1].(hcl.TraverseAttr)
	if !ok {
		return nil, invalid
	}
	name := traversal.RootName() + "." + attr.Name
	switch {
	case name != "count.index" && name != "each.key":
		return nil, invalid
	case key == nil:
		return nil, nil
	}
	_, isCount := key.(addrs.IntKey)
	if isCount != (name == "count.index") {
		kind := map[bool]string{true: "count", false: "for_each"}[isCount]
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid index expression",
			Detail: fmt.Sprintf("%s is not available here: this resource's instances are made by %s.", name, kind), Subject: expr.Range().Ptr()}}
	}
	return &hcl.TraverseIndex{Key: key.Value(), SrcRange: expr.Range()}, nil
}
