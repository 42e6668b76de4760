// Package schematest builds provider schemas for tests of the JSON renderers
// from the document "terraform providers schema -json" prints, so that the
// renderers are checked with the schemas the real providers declare.
package schematest

import (
	"encoding/json"
	"fmt"
	"os"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// Load reads a providers schema document and returns its schemas.
func Load(path string) (*providers.Schemas, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc tfjson.ProviderSchemas
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := &providers.Schemas{Providers: map[addrs.Provider]providers.GetProviderSchemaResponse{}}
	for source, provider := range doc.Schemas {
		addr, err := addrs.ParseProviderSource(source)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		resp := providers.GetProviderSchemaResponse{
			ResourceTypes: map[string]schema.Schema{},
			DataSources:   map[string]schema.Schema{},
		}
		if provider.ConfigSchema != nil {
			resp.Provider = convert(provider.ConfigSchema)
		}
		for name, s := range provider.ResourceSchemas {
			resp.ResourceTypes[name] = convert(s)
		}
		for name, s := range provider.DataSourceSchemas {
			resp.DataSources[name] = convert(s)
		}
		out.Providers[addr] = resp
	}
	return out, nil
}

var nestings = map[tfjson.SchemaNestingMode]schema.Nesting{
	tfjson.SchemaNestingModeSingle: schema.NestingSingle,
	tfjson.SchemaNestingModeGroup:  schema.NestingGroup,
	tfjson.SchemaNestingModeList:   schema.NestingList,
	tfjson.SchemaNestingModeSet:    schema.NestingSet,
	tfjson.SchemaNestingModeMap:    schema.NestingMap,
}

func convert(s *tfjson.Schema) schema.Schema {
	return schema.Schema{Version: int64(s.Version), Block: convertBlock(s.Block)}
}

func convertBlock(b *tfjson.SchemaBlock) *schema.Block {
	out := &schema.Block{Attributes: map[string]*schema.Attribute{}, BlockTypes: map[string]*schema.NestedBlock{}}
	if b == nil {
		return out
	}
	for name, attr := range b.Attributes {
		out.Attributes[name] = convertAttribute(attr)
	}
	for name, nested := range b.NestedBlocks {
		out.BlockTypes[name] = &schema.NestedBlock{
			Block:    *convertBlock(nested.Block),
			Nesting:  nestings[nested.NestingMode],
			MinItems: int(nested.MinItems),
			MaxItems: int(nested.MaxItems),
		}
	}
	return out
}

func convertAttribute(attr *tfjson.SchemaAttribute) *schema.Attribute {
	out := &schema.Attribute{
		Type:      attr.AttributeType,
		Required:  attr.Required,
		Optional:  attr.Optional,
		Computed:  attr.Computed,
		Sensitive: attr.Sensitive,
	}
	if nested := attr.AttributeNestedType; nested != nil {
		out.Type = cty.NilType
		out.NestedType = &schema.Object{Attributes: map[string]*schema.Attribute{}, Nesting: nestings[nested.NestingMode]}
		for name, child := range nested.Attributes {
			out.NestedType.Attributes[name] = convertAttribute(child)
		}
	}
	return out
}
