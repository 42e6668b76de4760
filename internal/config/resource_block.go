package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

var resourceBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"},
		{Name: "for_each"},
		{Name: "provider"},
		{Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "locals"},
		{Type: "_"},
	},
}

var managedLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "create_before_destroy"},
		{Name: "prevent_destroy"},
		{Name: "ignore_changes"},
		{Name: "replace_triggered_by"},
		{Name: "enabled"},
		{Name: "destroy"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "precondition"},
		{Type: "postcondition"},
	},
}

var dataLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "enabled"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "precondition"},
		{Type: "postcondition"},
	},
}

func decodeResourceBlock(block *hcl.Block) (*Resource, hcl.Diagnostics) {
	resource := &Resource{
		Mode:      addrs.ManagedResourceMode,
		Type:      block.Labels[0],
		Name:      block.Labels[1],
		TypeRange: labelRange(block, 0),
		DeclRange: block.DefRange,
	}
	kind := "resource"
	switch block.Type {
	case "data":
		resource.Mode = addrs.DataResourceMode
		kind = "data source"
	case "ephemeral":
		resource.Mode = addrs.EphemeralResourceMode
		kind = "ephemeral resource"
	default:
		resource.Managed = &ManagedResource{}
	}
	diags := checkIdentifier(kind+" type", resource.Type, labelRange(block, 0))
	diags = append(diags, checkIdentifier(kind, resource.Name, labelRange(block, 1))...)
	content, config, moreDiags := block.Body.PartialContent(resourceBlockSchema)
	diags = append(diags, moreDiags...)
	resource.Config = config
	diags = append(diags, decodeResourceMetaArguments(resource, content.Attributes)...)
	var escape, lifecycle *hcl.Block
	for _, inner := range content.Blocks {
		if inner.Type == "lifecycle" {
			if lifecycle != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate lifecycle block",
					Detail:   fmt.Sprintf("This resource already has a lifecycle block at %s.", lifecycle.DefRange),
					Subject:  &inner.DefRange,
				})
				continue
			}
			lifecycle = inner
		}
		if inner.Type == "_" {
			var moreDiags hcl.Diagnostics
			resource.Config, moreDiags = escapingBlock(resource.Config, inner, &escape)
			diags = append(diags, moreDiags...)
			continue
		}
		diags = append(diags, decodeResourceNestedBlock(resource, block.Type, inner)...)
	}
	what := map[string]string{"resource": "may be used to be explicit about the number of resources",
		"data source":        "may be used to be explicit about the number of data sources",
		"ephemeral resource": "may be used to be explicit about the number of ephemeral resources"}[kind]
	if d := findRepetitionArgs(content.Attributes, content.Blocks).conflict(what); d != nil {
		diags = append(diags, d)
	}
	return resource, diags
}

func decodeResourceMetaArguments(resource *Resource, attrs hcl.Attributes) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := attrs["count"]; ok {
		resource.Count = attr.Expr
	}
	if attr, ok := attrs["for_each"]; ok {
		resource.ForEach = attr.Expr
	}
	if attr, ok := attrs["provider"]; ok {
		ref, moreDiags := decodeProviderConfigRef(attr.Expr, "provider")
		diags = append(diags, moreDiags...)
		resource.ProviderConfigRef = ref
	}
	if attr, ok := attrs["depends_on"]; ok {
		deps, moreDiags := decodeDependsOn(attr)
		diags = append(diags, moreDiags...)
		resource.DependsOn = deps
	}
	return diags
}

func decodeResourceNestedBlock(resource *Resource, blockType string, inner *hcl.Block) hcl.Diagnostics {
	switch inner.Type {
	case "lifecycle":
		return decodeLifecycleBlock(resource, inner)
	case "connection", "provisioner":
		if blockType != "resource" {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   fmt.Sprintf("Blocks of type %q are not expected here.", inner.Type),
				Subject:  inner.TypeRange.Ptr(),
			}}
		}
		if inner.Type == "connection" {
			resource.Managed.HasConnectionBlock = true
		} else {
			resource.Managed.ProvisionerBlockCnt++
		}
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Provisioners are not supported",
			Detail:   fmt.Sprintf("Terrane does not run provisioners, so this %s block would be ignored. Move the work into a resource (for example terraform_data with a provider that runs commands) or into your image build, and remove the block.", inner.Type),
			Subject:  inner.DefRange.Ptr(),
		}}
	default:
		return hcl.Diagnostics{reservedBlockDiag(inner, "resource")}
	}
}

func decodeLifecycleBlock(resource *Resource, block *hcl.Block) hcl.Diagnostics {
	schema := managedLifecycleSchema
	if resource.Mode == addrs.DataResourceMode {
		schema = dataLifecycleSchema
	}
	content, diags := block.Body.Content(schema)
	if resource.Mode == addrs.EphemeralResourceMode {
		diags = append(diags, managedOnlyLifecycleArguments(content.Attributes)...)
	}
	if attr, ok := content.Attributes["enabled"]; ok {
		resource.Enabled = attr.Expr
	}
	for _, inner := range content.Blocks {
		rule, moreDiags := decodeCheckRule(inner)
		diags = append(diags, moreDiags...)
		if rule == nil {
			continue
		}
		if inner.Type == "precondition" {
			resource.Preconditions = append(resource.Preconditions, rule)
		} else {
			resource.Postconditions = append(resource.Postconditions, rule)
		}
	}
	if resource.Managed != nil {
		diags = append(diags, decodeManagedLifecycle(resource.Managed, content.Attributes)...)
	}
	return diags
}

// managedOnlyLifecycleArguments reports the lifecycle arguments of an
// ephemeral block that only resource blocks have, in OpenTofu's words: an
// ephemeral resource is opened anew on every run, so there is nothing for
// them to act on.
func managedOnlyLifecycleArguments(attrs hcl.Attributes) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range []string{"create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by", "destroy"} {
		if attr, ok := attrs[name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid lifecycle configuration for ephemeral resource",
				Detail:   fmt.Sprintf("The lifecycle argument %q cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks.", name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	return diags
}

func decodeManagedLifecycle(managed *ManagedResource, attrs hcl.Attributes) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := attrs["create_before_destroy"]; ok {
		diags = append(diags, decodeBool(attr, &managed.CreateBeforeDestroy)...)
		managed.CreateBeforeDestroySet = true
	}
	if attr, ok := attrs["prevent_destroy"]; ok {
		managed.PreventDestroy = attr.Expr
	}
	if attr, ok := attrs["destroy"]; ok {
		managed.Destroy = attr.Expr
	}
	if attr, ok := attrs["ignore_changes"]; ok {
		diags = append(diags, decodeIgnoreChanges(managed, attr)...)
	}
	if attr, ok := attrs["replace_triggered_by"]; ok {
		exprs, moreDiags := decodeReplaceTriggeredBy(attr)
		diags = append(diags, moreDiags...)
		managed.ReplaceTriggeredBy = exprs
	}
	return diags
}

func decodeIgnoreChanges(managed *ManagedResource, attr *hcl.Attribute) hcl.Diagnostics {
	if hcl.ExprAsKeyword(attr.Expr) == "all" {
		managed.IgnoreAllChanges = true
		return nil
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	if diags.HasErrors() {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid ignore_changes value",
			Detail:   `The ignore_changes argument must be a list of attribute references, or the keyword all.`,
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	for _, expr := range exprs {
		if val, valDiags := expr.Value(nil); !valDiags.HasErrors() && val.Type() == cty.String && val.IsKnown() && !val.IsNull() && val.AsString() == "*" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid ignore_changes wildcard",
				Detail:   `The ["*"] form of ignore_changes wildcard is was deprecated and is now invalid. Use "ignore_changes = all" to ignore changes to all attributes.`,
				Subject:  attr.Expr.Range().Ptr(),
			})
			continue
		}
		traversal, travDiags := hcl.RelTraversalForExpr(expr)
		diags = append(diags, travDiags...)
		if !travDiags.HasErrors() {
			managed.IgnoreChanges = append(managed.IgnoreChanges, traversal)
		}
	}
	return diags
}
