package genconfig

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// Header opens every generated file, as Terraform's does.
const Header = "# __generated__ by Terrane\n# Please review these resources and move them into your main configuration files.\n"

// Resource is one imported object to write a block for.
type Resource struct {
	Type, Name string
	// ImportID is the ID the object was imported with, noted above the block.
	ImportID string
	Schema   *schema.Block
	// Value is the object as the provider read it.
	Value cty.Value
}

// File returns the generated file: the header, then one block per
// resource, in the order given.
func File(resources []Resource) []byte {
	out := []byte(Header)
	for _, res := range resources {
		out = append(out, '\n')
		out = append(out, Block(res)...)
	}
	return out
}

// Block returns one resource's block, preceded by a comment naming the
// import ID. Computed-only attributes are left out (the provider decides
// them); every attribute a configuration may set is written, null ones as
// null so the user sees what can be set; sensitive ones are written as
// null with a "# sensitive" note, since the generated file is not a place
// for secrets.
func Block(res Resource) []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	body.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment,
		Bytes: fmt.Appendf(nil, "# __generated__ by Terrane from %q\n", res.ImportID)}})
	block := body.AppendNewBlock("resource", []string{res.Type, res.Name})
	value, _ := res.Value.UnmarkDeep()
	writeBody(block.Body(), res.Schema, value)
	return hclwrite.Format(f.Bytes())
}

func writeBody(body *hclwrite.Body, block *schema.Block, value cty.Value) {
	for _, name := range sortedNames(block.Attributes) {
		attr := block.Attributes[name]
		if !configurable(attr) || attr.Deprecated || legacyID(name, attr) {
			continue
		}
		body.SetAttributeRaw(name, attributeTokens(attr, attributeValue(value, name)))
	}
	for _, name := range sortedNames(block.BlockTypes) {
		if nested := block.BlockTypes[name]; !nested.Deprecated {
			writeNestedBlocks(body, name, nested, attributeValue(value, name))
		}
	}
}

// configurable reports whether a configuration may set attr: computed-only
// attributes are the provider's to decide.
func configurable(attr *schema.Attribute) bool {
	return attr.Required || attr.Optional
}

// legacyID reports the optional and computed "id" attribute the legacy
// SDK adds to every resource schema. OpenTofu leaves it out of generated
// configuration, since validation refuses it where the provider's own
// code does not declare it; deprecated attributes and blocks it leaves
// out too.
func legacyID(name string, attr *schema.Attribute) bool {
	return name == "id" && attr.Optional && attr.Computed
}

func attributeValue(object cty.Value, name string) cty.Value {
	if object.IsNull() || !object.IsKnown() || !object.Type().IsObjectType() || !object.Type().HasAttribute(name) {
		return cty.NilVal
	}
	return object.GetAttr(name)
}

func attributeTokens(attr *schema.Attribute, value cty.Value) hclwrite.Tokens {
	null := hclwrite.Tokens{{Type: hclsyntax.TokenIdent, Bytes: []byte("null")}}
	switch {
	case attr.Sensitive || attr.WriteOnly:
		return append(null, &hclwrite.Token{Type: hclsyntax.TokenComment, Bytes: []byte("# sensitive")})
	case value == cty.NilVal || value.IsNull() || !value.IsWhollyKnown():
		return null
	}
	return hclwrite.TokensForValue(value)
}

// writeNestedBlocks writes one block type's blocks: one per element of a
// list or set, one labelled block per map element, one for a single block
// that is present.
func writeNestedBlocks(body *hclwrite.Body, typeName string, nested *schema.NestedBlock, value cty.Value) {
	if value == cty.NilVal || value.IsNull() || !value.IsKnown() {
		return
	}
	switch nested.Nesting {
	case schema.NestingSingle, schema.NestingGroup:
		writeBody(body.AppendNewBlock(typeName, nil).Body(), &nested.Block, value)
	case schema.NestingList, schema.NestingSet:
		for it := value.ElementIterator(); it.Next(); {
			_, element := it.Element()
			writeBody(body.AppendNewBlock(typeName, nil).Body(), &nested.Block, element)
		}
	case schema.NestingMap:
		for it := value.ElementIterator(); it.Next(); {
			key, element := it.Element()
			writeBody(body.AppendNewBlock(typeName, []string{key.AsString()}).Body(), &nested.Block, element)
		}
	}
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
