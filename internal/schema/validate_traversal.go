package schema

import (
	"fmt"
	"sort"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// StaticValidateTraversal checks, before anything is evaluated, that a
// relative traversal (the .a.b[0] after a resource's address in a
// reference) names something the block has. It is optimistic: what only
// evaluation can tell (an index beyond a list's end, a map key that is
// absent) passes here. Errors point at the offending step and suggest the
// nearest name that exists.
func (b *Block) StaticValidateTraversal(traversal hcl.Traversal) hcl.Diagnostics {
	if len(traversal) == 0 {
		return nil
	}
	next, after := traversal[0], traversal[1:]
	name, diags := traversalAttrName(next)
	if diags.HasErrors() {
		return diags
	}
	if attr := b.Attributes[name]; attr != nil {
		if attr.Deprecated {
			diags = diags.Append(&hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Deprecated attribute",
				Detail:   fmt.Sprintf("The attribute %q is deprecated. Refer to the provider documentation for what to use instead.", name),
				Subject:  next.SourceRange().Ptr(),
			})
		}
		// HCL's own traversal of an unknown value of the attribute's type
		// gives the same errors evaluation would, no sooner than it can.
		_, moreDiags := after.TraverseRel(cty.UnknownVal(attr.ImpliedType()))
		return append(diags, moreDiags...)
	}
	if nested := b.BlockTypes[name]; nested != nil {
		return append(diags, nested.staticValidateTraversal(name, after)...)
	}
	return diags.Append(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported attribute",
		Detail:   fmt.Sprintf("This object has no argument, nested block, or exported attribute named %q.%s", name, b.suggestName(name)),
		Subject:  next.SourceRange().Ptr(),
	})
}

// traversalAttrName is the attribute a traversal step at a block names.
// Only attribute steps name one; an index step that looks like an attribute
// name gets a message saying how to write it.
func traversalAttrName(step hcl.Traverser) (string, hcl.Diagnostics) {
	switch st := step.(type) {
	case hcl.TraverseAttr:
		return st.Name, nil
	case hcl.TraverseIndex:
		detail := "Only attribute access is allowed here, using the dot operator."
		if key := st.Key; key.IsKnown() && !key.IsNull() && key.Type() == cty.String && hclsyntax.ValidIdentifier(key.AsString()) {
			detail = fmt.Sprintf("Only attribute access is allowed here. Did you mean to access attribute %q using the dot operator?", key.AsString())
		}
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid index operation", Detail: detail, Subject: st.SrcRange.Ptr()}}
	default:
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid operation",
			Detail:   "Only attribute access is allowed here, using the dot operator.",
			Subject:  step.SourceRange().Ptr(),
		}}
	}
}

func (b *NestedBlock) staticValidateTraversal(typeName string, traversal hcl.Traversal) hcl.Diagnostics {
	if b.Nesting == NestingSingle || b.Nesting == NestingGroup {
		return b.Block.StaticValidateTraversal(traversal)
	}
	if len(traversal) == 0 {
		return nil // the whole collection of blocks
	}
	next, after := traversal[0], traversal[1:]
	switch b.Nesting {
	case NestingSet:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot index a set value",
			Detail: fmt.Sprintf("Block type %q is a set of objects, and set elements have no keys to address them by. "+
				"To find the elements you need, use a \"for\" expression with an \"if\" clause.", typeName),
			Subject: next.SourceRange().Ptr(),
		}}
	case NestingList:
		if _, isIndex := next.(hcl.TraverseIndex); !isIndex {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid operation",
				Detail:   fmt.Sprintf("Block type %q is a list of objects, so it must be indexed with a number, like .%s[0].", typeName, typeName),
				Subject:  next.SourceRange().Ptr(),
			}}
		}
		return b.Block.StaticValidateTraversal(after)
	case NestingMap:
		// A map is indexed by key in either form (.key or ["key"]); whether
		// the key exists only evaluation can tell.
		return b.Block.StaticValidateTraversal(after)
	default:
		return nil
	}
}

// suggestName is " Did you mean ...?" naming the block's closest name to a
// mistyped one, or "" if none is close.
func (b *Block) suggestName(given string) string {
	names := make([]string, 0, len(b.Attributes)+len(b.BlockTypes))
	for name := range b.Attributes {
		names = append(names, name)
	}
	for name := range b.BlockTypes {
		names = append(names, name)
	}
	sort.Strings(names)
	best, bestDistance := "", 3 // farther than two edits is a different word
	for _, name := range names {
		if d := levenshtein.Distance(given, name, nil); d < bestDistance {
			best, bestDistance = name, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// ValidateIgnoreChanges checks a resource's lifecycle ignore_changes paths
// against its type's schema, as OpenTofu does: a path the type does not
// have is an error (a typo would otherwise leave the drift it meant to
// ignore to be "fixed" by the next apply), and an attribute only the
// provider sets is a warning, since there is no configured value to keep.
// typeRange is where the resource's type is written.
func (b *Block) ValidateIgnoreChanges(traversals []hcl.Traversal, typeRange hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, traversal := range traversals {
		moreDiags := b.StaticValidateTraversal(traversal)
		diags = append(diags, moreDiags...)
		if moreDiags.HasErrors() || len(traversal) != 1 {
			continue
		}
		name, _ := traversalAttrName(traversal[0])
		if attr := b.Attributes[name]; attr != nil && attr.Computed && !attr.Optional {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Redundant ignore_changes element",
				Detail: fmt.Sprintf("Adding an attribute name to ignore_changes tells Terrane to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\n"+
					"The attribute %s is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.", name),
				Subject: typeRange.Ptr(),
			})
		}
	}
	return diags
}
