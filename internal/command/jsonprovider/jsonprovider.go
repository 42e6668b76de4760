package jsonprovider

import (
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// FormatVersion is the version of the JSON format this package writes.
const FormatVersion = "1.0"

// Provider is everything known about one provider's schemas.
type Provider struct {
	Schema     providers.GetProviderSchemaResponse
	Identities providers.GetResourceIdentitySchemasResponse
}

// Marshal builds the document for providers keyed by provider source
// address (registry.terraform.io/hashicorp/null).
func Marshal(byAddr map[string]Provider) *ProviderSchemas {
	out := &ProviderSchemas{FormatVersion: FormatVersion, Schemas: map[string]*ProviderSchema{}}
	for addr, p := range byAddr {
		out.Schemas[addr] = marshalProvider(p)
	}
	return out
}

func marshalProvider(p Provider) *ProviderSchema {
	resp := p.Schema
	ps := &ProviderSchema{
		ConfigSchema:             marshalSchema(resp.Provider),
		ResourceSchemas:          marshalSchemas(resp.ResourceTypes),
		DataSourceSchemas:        marshalSchemas(resp.DataSources),
		EphemeralResourceSchemas: marshalSchemas(resp.EphemeralResources),
		ListResourceSchemas:      marshalSchemas(resp.ListResources),
	}
	if len(resp.Functions) > 0 {
		ps.Functions = make(map[string]*tfjson.FunctionSignature, len(resp.Functions))
		for name, fn := range resp.Functions {
			ps.Functions[name] = marshalFunction(fn)
		}
	}
	if len(p.Identities.IdentityTypes) > 0 {
		ps.ResourceIdentitySchemas = make(map[string]*tfjson.IdentitySchema, len(p.Identities.IdentityTypes))
		for name, id := range p.Identities.IdentityTypes {
			ps.ResourceIdentitySchemas[name] = marshalIdentity(id)
		}
	}
	return ps
}

func marshalSchemas(in map[string]schema.Schema) map[string]*Schema {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]*Schema, len(in))
	for name, s := range in {
		out[name] = marshalSchema(s)
	}
	return out
}

func marshalSchema(s schema.Schema) *Schema {
	return &Schema{Version: uint64(s.Version), Block: marshalBlock(s.Block)}
}

func marshalBlock(b *schema.Block) *SchemaBlock {
	if b == nil {
		return &SchemaBlock{DescriptionKind: string(tfjson.SchemaDescriptionKindPlain)}
	}
	out := &SchemaBlock{
		Description:        b.Description,
		DescriptionKind:    marshalKind(b.DescriptionKind),
		Deprecated:         b.Deprecated,
		DeprecationMessage: b.DeprecationMessage,
	}
	if len(b.Attributes) > 0 {
		out.Attributes = make(map[string]*SchemaAttribute, len(b.Attributes))
		for name, attr := range b.Attributes {
			out.Attributes[name] = marshalAttribute(attr)
		}
	}
	if len(b.BlockTypes) > 0 {
		out.NestedBlocks = make(map[string]*SchemaBlockType, len(b.BlockTypes))
		for name, nb := range b.BlockTypes {
			out.NestedBlocks[name] = &SchemaBlockType{
				NestingMode: marshalNesting(nb.Nesting),
				Block:       marshalBlock(&nb.Block),
				MinItems:    uint64(nb.MinItems),
				MaxItems:    uint64(nb.MaxItems),
			}
		}
	}
	return out
}

func marshalAttribute(a *schema.Attribute) *SchemaAttribute {
	out := &SchemaAttribute{
		Description:        a.Description,
		DescriptionKind:    marshalKind(a.DescriptionKind),
		Deprecated:         a.Deprecated,
		DeprecationMessage: a.DeprecationMessage,
		Required:           a.Required,
		Optional:           a.Optional,
		Computed:           a.Computed,
		Sensitive:          a.Sensitive,
		WriteOnly:          a.WriteOnly,
	}
	if a.NestedType != nil {
		out.AttributeNestedType = marshalObject(a.NestedType)
	} else if a.Type != cty.NilType {
		out.AttributeType, _ = a.Type.MarshalJSON()
	}
	return out
}

func marshalObject(o *schema.Object) *SchemaNestedAttributeType {
	out := &SchemaNestedAttributeType{NestingMode: marshalNesting(o.Nesting)}
	if len(o.Attributes) > 0 {
		out.Attributes = make(map[string]*SchemaAttribute, len(o.Attributes))
		for name, attr := range o.Attributes {
			out.Attributes[name] = marshalAttribute(attr)
		}
	}
	return out
}

func marshalFunction(fn providers.FunctionDecl) *tfjson.FunctionSignature {
	out := &tfjson.FunctionSignature{
		Description:        fn.Description,
		Summary:            fn.Summary,
		DeprecationMessage: fn.DeprecationMessage,
		ReturnType:         fn.ReturnType,
	}
	for _, p := range fn.Parameters {
		out.Parameters = append(out.Parameters, marshalParam(p))
	}
	if fn.VariadicParameter != nil {
		out.VariadicParameter = marshalParam(*fn.VariadicParameter)
	}
	return out
}

func marshalParam(p providers.FunctionParam) *tfjson.FunctionParameter {
	return &tfjson.FunctionParameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNullValue, Type: p.Type}
}

func marshalIdentity(id providers.IdentitySchema) *tfjson.IdentitySchema {
	out := &tfjson.IdentitySchema{Version: uint64(id.Version)}
	if len(id.Attributes) > 0 {
		out.Attributes = make(map[string]*tfjson.IdentityAttribute, len(id.Attributes))
		for name, attr := range id.Attributes {
			out.Attributes[name] = &tfjson.IdentityAttribute{
				IdentityType:      attr.Type,
				Description:       attr.Description,
				RequiredForImport: attr.RequiredForImport,
				OptionalForImport: attr.OptionalForImport,
			}
		}
	}
	return out
}

func marshalKind(k schema.StringKind) string {
	if k == schema.StringMarkdown {
		return string(tfjson.SchemaDescriptionKindMarkdown)
	}
	return string(tfjson.SchemaDescriptionKindPlain)
}

func marshalNesting(n schema.Nesting) string {
	switch n {
	case schema.NestingSingle:
		return string(tfjson.SchemaNestingModeSingle)
	case schema.NestingGroup:
		return string(tfjson.SchemaNestingModeGroup)
	case schema.NestingList:
		return string(tfjson.SchemaNestingModeList)
	case schema.NestingSet:
		return string(tfjson.SchemaNestingModeSet)
	case schema.NestingMap:
		return string(tfjson.SchemaNestingModeMap)
	default:
		return ""
	}
}
