package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

var movedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "from", Required: true},
		{Name: "to", Required: true},
	},
}

func decodeMovedBlock(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	content, diags := block.Body.Content(movedBlockSchema)
	moved := &Moved{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["from"]; ok {
		moved.From, diags = appendTraversal(diags, attr)
	}
	if attr, ok := content.Attributes["to"]; ok {
		moved.To, diags = appendTraversal(diags, attr)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	diags = append(diags, checkMovedEndpoint(moved.From)...)
	diags = append(diags, checkMovedEndpoint(moved.To)...)
	if !diags.HasErrors() && isResourceEndpoint(moved.From) != isResourceEndpoint(moved.To) {
		// As OpenTofu, refused as the block is read: the other checks
		// need the run.
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  `Invalid "moved" addresses`,
			Detail:   `The "from" and "to" addresses must either both refer to resources or both refer to modules.`,
			Subject:  moved.DeclRange.Ptr(),
		})
	}
	return moved, diags
}

// isResourceEndpoint reports whether a moved block's address names a
// resource or resource instance, rather than a module call or instance.
func isResourceEndpoint(traversal hcl.Traversal) bool {
	_, diags := addrs.ParseAbsResourceInstance(traversal)
	return !diags.HasErrors()
}

func appendTraversal(diags hcl.Diagnostics, attr *hcl.Attribute) (hcl.Traversal, hcl.Diagnostics) {
	traversal, moreDiags := hcl.AbsTraversalForExpr(attr.Expr)
	return traversal, append(diags, moreDiags...)
}

var importBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "to", Required: true},
		{Name: "id", Required: true},
		{Name: "for_each"},
		{Name: "provider"},
	},
}

func decodeImportBlock(block *hcl.Block) (*Import, hcl.Diagnostics) {
	content, diags := block.Body.Content(importBlockSchema)
	imp := &Import{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["to"]; ok {
		imp.To = attr.Expr
	}
	if attr, ok := content.Attributes["id"]; ok {
		imp.ID = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		imp.ForEach = attr.Expr
	}
	if attr, ok := content.Attributes["provider"]; ok {
		ref, moreDiags := decodeProviderConfigRef(attr.Expr, "provider")
		diags = append(diags, moreDiags...)
		imp.ProviderConfigRef = ref
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return imp, diags
}

var removedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "connection"},
	},
}

var removedLifecycleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "destroy"}},
}

// decodeRemovedBlock reads a removed block. As in OpenTofu, and unlike
// Terraform, a removed block forgets the objects unless its lifecycle says
// destroy = true, and one that does not say is warned about.
func decodeRemovedBlock(block *hcl.Block) (*Removed, hcl.Diagnostics) {
	content, diags := block.Body.Content(removedBlockSchema)
	removed := &Removed{DeclRange: block.DefRange}
	destroySet := false
	if attr, ok := content.Attributes["from"]; ok {
		removed.From, diags = appendTraversal(diags, attr)
	}
	for _, inner := range content.Blocks {
		if inner.Type != "lifecycle" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provisioners are not supported",
				Detail:   "Terrane does not run provisioners. Remove this " + inner.Type + " block.",
				Subject:  inner.DefRange.Ptr(),
			})
			continue
		}
		lifecycle, moreDiags := inner.Body.Content(removedLifecycleSchema)
		diags = append(diags, moreDiags...)
		if attr, ok := lifecycle.Attributes["destroy"]; ok {
			diags = append(diags, decodeBool(attr, &removed.Destroy)...)
			destroySet = true
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	diags = append(diags, checkMovedEndpoint(removed.From)...)
	diags = append(diags, checkRemovedHasNoInstanceKey(removed.From)...)
	if !destroySet && !diags.HasErrors() {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Missing lifecycle from the removed block",
			Detail:   "It is recommended for each 'removed' block configured to have also the 'lifecycle' block defined. By not specifying if the resource should be destroyed or not, could lead to unwanted behavior.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return removed, diags
}

var checkBlockSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "assert"},
	},
}

func decodeCheckBlock(block *hcl.Block) (*Check, hcl.Diagnostics) {
	check := &Check{Name: block.Labels[0], DeclRange: block.DefRange}
	diags := checkIdentifier("check block", check.Name, labelRange(block, 0))
	content, moreDiags := block.Body.Content(checkBlockSchema)
	diags = append(diags, moreDiags...)
	for _, inner := range content.Blocks {
		switch inner.Type {
		case "data":
			if check.DataResource != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Multiple data resource blocks",
					Detail:   "This check block already has a data resource defined at " + check.DataResource.DeclRange.String() + ".",
					Subject:  inner.DefRange.Ptr(),
				})
				continue
			}
			resource, moreDiags := decodeResourceBlock(inner)
			diags = append(diags, moreDiags...)
			diags = append(diags, checkNestedDataBlock(resource, inner)...)
			resource.ScopedToCheck = check.Name
			check.DataResource = resource
		case "assert":
			rule, moreDiags := decodeCheckRule(inner)
			diags = append(diags, moreDiags...)
			appendIfDecoded(&check.Asserts, rule)
		}
	}
	if len(check.Asserts) == 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Zero assert blocks",
			Detail:   "Check blocks must have at least one assert block.",
			Subject:  block.DefRange.Ptr(),
		})
	}
	return check, diags
}

// checkNestedDataBlock refuses what a data block nested in a check block
// cannot have, as OpenTofu does: count and for_each (the check is about one
// object) and a lifecycle block (the check manages its lifecycle).
func checkNestedDataBlock(resource *Resource, block *hcl.Block) hcl.Diagnostics {
	content, _, _ := block.Body.PartialContent(resourceBlockSchema)
	var diags hcl.Diagnostics
	for _, name := range []string{"count", "for_each"} {
		if attr, ok := content.Attributes[name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Invalid %q attribute", name),
				Detail:   `The "count" and "for_each" meta-arguments are not supported within nested data blocks.`,
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	for _, inner := range content.Blocks {
		if inner.Type == "lifecycle" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid lifecycle block",
				Detail:   `Nested data blocks do not support "lifecycle" blocks as the lifecycle is managed by the containing block.`,
				Subject:  inner.DefRange.Ptr(),
			})
		}
	}
	if diags.HasErrors() {
		resource.Count, resource.ForEach, resource.Enabled = nil, nil, nil
	}
	return diags
}

// checkMovedEndpoint reports a moved or removed endpoint that is neither a
// resource (instance) address nor a module (instance) address.
func checkMovedEndpoint(traversal hcl.Traversal) hcl.Diagnostics {
	if addr, diags := addrs.ParseAbsResourceInstance(traversal); !diags.HasErrors() {
		if addr.Resource.Resource.Mode == addrs.EphemeralResourceMode {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid address",
				Detail:   "Moved and removed blocks do not work with ephemeral resources: nothing about an ephemeral resource is recorded, so there is nothing to move or forget.",
				Subject:  traversal.SourceRange().Ptr(),
			}}
		}
		return nil
	}
	mi, diags := addrs.ParseModuleInstance(traversal)
	if diags.HasErrors() || len(mi) == 0 {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid address",
			Detail:   "A moved or removed block refers to a resource, a resource instance, a module call or a module instance, like aws_instance.web, module.net or module.net[0].",
			Subject:  traversal.SourceRange().Ptr(),
		}}
	}
	return nil
}

// checkRemovedHasNoInstanceKey reports an instance key in a removed
// block's address: a removed block stops managing every instance of a
// resource or module, since the configuration no longer says how many
// there are.
// isModuleStepIndex reports whether step is an index following a
// module.NAME pair of traversal.
func isModuleStepIndex(traversal hcl.Traversal, step hcl.Traverser) bool {
	for i := 2; i < len(traversal); i++ {
		if traversal[i] != step {
			continue
		}
		if root, ok := traversal[i-2].(hcl.TraverseRoot); ok && root.Name == "module" {
			return true
		}
		attr, ok := traversal[i-2].(hcl.TraverseAttr)
		return ok && attr.Name == "module"
	}
	return false
}

func checkRemovedHasNoInstanceKey(traversal hcl.Traversal) hcl.Diagnostics {
	for _, step := range traversal {
		index, ok := step.(hcl.TraverseIndex)
		if !ok {
			continue
		}
		summary, detail := "Resource instance address with keys is not allowed", `Resource address cannot be a resource instance (e.g. "null_resource.a[0]"), it must be a resource instead (e.g. "null_resource.a").`
		if isModuleStepIndex(traversal, step) {
			summary, detail = "Module instance address with keys is not allowed", `Module address cannot be a module instance (e.g. "module.a[0]"), it must be a module instead (e.g. "module.a").`
		}
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: index.SrcRange.Ptr()}}
	}
	return nil
}
