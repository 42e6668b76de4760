package grpcprovider

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// DecodeSchema converts a GetProviderSchema answer into Terrane's schema
// model. A malformed type constraint becomes an error diagnostic naming the
// schema and attribute, and that attribute gets the dynamic type so the
// rest of the schema stays usable.
func DecodeSchema(resp *tfplugin6.GetProviderSchema_Response) providers.GetProviderSchemaResponse {
	var d schemaDecoder
	out := providers.GetProviderSchemaResponse{
		Provider:           d.schema("provider configuration", resp.GetProvider()),
		ProviderMeta:       d.schema("provider_meta", resp.GetProviderMeta()),
		ResourceTypes:      d.schemas("resource type", resp.GetResourceSchemas()),
		DataSources:        d.schemas("data source", resp.GetDataSourceSchemas()),
		EphemeralResources: d.schemas("ephemeral resource type", resp.GetEphemeralResourceSchemas()),
		ListResources:      d.schemas("list resource type", resp.GetListResourceSchemas()),
		Actions:            make(map[string]schema.Schema, len(resp.GetActionSchemas())),
		Functions:          make(map[string]providers.FunctionDecl, len(resp.GetFunctions())),
		ServerCapabilities: serverCapabilities(resp.GetServerCapabilities()),
	}
	for name, action := range resp.GetActionSchemas() {
		out.Actions[name] = d.schema("action "+name, action.GetSchema())
	}
	for name, fn := range resp.GetFunctions() {
		out.Functions[name] = d.function(name, fn)
	}
	out.Diagnostics = append(diagnostics(resp.GetDiagnostics()), d.problems...)
	return out
}

// schemaDecoder collects the problems found while decoding one answer.
type schemaDecoder struct {
	problems diags.Diagnostics
}

func (d *schemaDecoder) schemas(kind string, in map[string]*tfplugin6.Schema) map[string]schema.Schema {
	out := make(map[string]schema.Schema, len(in))
	for name, s := range in {
		out[name] = d.schema(kind+" "+name, s)
	}
	return out
}

// schema decodes one versioned schema; an absent schema is an empty block,
// which is what a provider without configuration means.
func (d *schemaDecoder) schema(what string, in *tfplugin6.Schema) schema.Schema {
	return schema.Schema{Version: in.GetVersion(), Block: d.block(what, in.GetBlock())}
}

func (d *schemaDecoder) block(what string, in *tfplugin6.Schema_Block) *schema.Block {
	out := &schema.Block{
		Attributes:      make(map[string]*schema.Attribute, len(in.GetAttributes())),
		BlockTypes:      make(map[string]*schema.NestedBlock, len(in.GetBlockTypes())),
		Description:     in.GetDescription(),
		DescriptionKind: stringKind(in.GetDescriptionKind()),
		Deprecated:      in.GetDeprecated(),
		// Why, when the provider says (protocol 5.10 and 6.10).
		DeprecationMessage: in.GetDeprecationMessage(),
	}
	for _, attr := range in.GetAttributes() {
		out.Attributes[attr.GetName()] = d.attribute(what, attr)
	}
	for _, nested := range in.GetBlockTypes() {
		out.BlockTypes[nested.GetTypeName()] = &schema.NestedBlock{
			Block:    *d.block(what, nested.GetBlock()),
			Nesting:  blockNesting(nested.GetNesting()),
			MinItems: int(nested.GetMinItems()),
			MaxItems: int(nested.GetMaxItems()),
		}
	}
	return out
}

func (d *schemaDecoder) attribute(what string, in *tfplugin6.Schema_Attribute) *schema.Attribute {
	out := &schema.Attribute{
		Description:     in.GetDescription(),
		DescriptionKind: stringKind(in.GetDescriptionKind()),
		Required:        in.GetRequired(),
		Optional:        in.GetOptional(),
		Computed:        in.GetComputed(),
		Sensitive:       in.GetSensitive(),
		Deprecated:      in.GetDeprecated(),
		// Why, when the provider says (protocol 5.10 and 6.10).
		DeprecationMessage: in.GetDeprecationMessage(),
		WriteOnly:          in.GetWriteOnly(),
	}
	if nested := in.GetNestedType(); nested != nil {
		out.NestedType = &schema.Object{
			Attributes: make(map[string]*schema.Attribute, len(nested.GetAttributes())),
			Nesting:    objectNesting(nested.GetNesting()),
		}
		for _, attr := range nested.GetAttributes() {
			out.NestedType.Attributes[attr.GetName()] = d.attribute(what, attr)
		}
		return out
	}
	out.Type = d.typeConstraint(what, "attribute "+in.GetName(), in.GetType())
	return out
}

func (d *schemaDecoder) typeConstraint(what, where string, raw []byte) cty.Type {
	ty, err := value.TypeFromJSON(raw)
	if err != nil {
		d.problems = d.problems.Append(diags.Errorf("Provider schema has an invalid type",
			"The %s of the %s: %s. The provider is broken; report it to its developers.", where, what, err))
		return cty.DynamicPseudoType
	}
	return ty
}

func (d *schemaDecoder) function(name string, in *tfplugin6.Function) providers.FunctionDecl {
	what := "function " + name
	out := providers.FunctionDecl{
		ReturnType:         d.typeConstraint(what, "return type", in.GetReturn().GetType()),
		Summary:            in.GetSummary(),
		Description:        in.GetDescription(),
		DescriptionKind:    stringKind(in.GetDescriptionKind()),
		DeprecationMessage: in.GetDeprecationMessage(),
	}
	for _, param := range in.GetParameters() {
		out.Parameters = append(out.Parameters, d.parameter(what, param))
	}
	if variadic := in.GetVariadicParameter(); variadic != nil {
		param := d.parameter(what, variadic)
		out.VariadicParameter = &param
	}
	return out
}

func (d *schemaDecoder) parameter(what string, in *tfplugin6.Function_Parameter) providers.FunctionParam {
	return providers.FunctionParam{
		Name:               in.GetName(),
		Type:               d.typeConstraint(what, fmt.Sprintf("parameter %q", in.GetName()), in.GetType()),
		AllowNullValue:     in.GetAllowNullValue(),
		AllowUnknownValues: in.GetAllowUnknownValues(),
		Description:        in.GetDescription(),
		DescriptionKind:    stringKind(in.GetDescriptionKind()),
	}
}

// DecodeIdentitySchemas converts a GetResourceIdentitySchemas answer.
func DecodeIdentitySchemas(resp *tfplugin6.GetResourceIdentitySchemas_Response) providers.GetResourceIdentitySchemasResponse {
	var d schemaDecoder
	out := providers.GetResourceIdentitySchemasResponse{
		IdentityTypes: make(map[string]providers.IdentitySchema, len(resp.GetIdentitySchemas())),
	}
	for typeName, in := range resp.GetIdentitySchemas() {
		identity := providers.IdentitySchema{
			Version:    in.GetVersion(),
			Attributes: make(map[string]*providers.IdentityAttribute, len(in.GetIdentityAttributes())),
		}
		for _, attr := range in.GetIdentityAttributes() {
			identity.Attributes[attr.GetName()] = &providers.IdentityAttribute{
				Type:              d.typeConstraint("identity of "+typeName, "attribute "+attr.GetName(), attr.GetType()),
				Description:       attr.GetDescription(),
				RequiredForImport: attr.GetRequiredForImport(),
				OptionalForImport: attr.GetOptionalForImport(),
			}
		}
		out.IdentityTypes[typeName] = identity
	}
	out.Diagnostics = append(diagnostics(resp.GetDiagnostics()), d.problems...)
	return out
}

func serverCapabilities(in *tfplugin6.ServerCapabilities) providers.ServerCapabilities {
	return providers.ServerCapabilities{
		PlanDestroy:               in.GetPlanDestroy(),
		GetProviderSchemaOptional: in.GetGetProviderSchemaOptional(),
		MoveResourceState:         in.GetMoveResourceState(),
		GenerateResourceConfig:    in.GetGenerateResourceConfig(),
	}
}

func stringKind(in tfplugin6.StringKind) schema.StringKind {
	if in == tfplugin6.StringKind_MARKDOWN {
		return schema.StringMarkdown
	}
	return schema.StringPlain
}

func blockNesting(in tfplugin6.Schema_NestedBlock_NestingMode) schema.Nesting {
	switch in {
	case tfplugin6.Schema_NestedBlock_SINGLE:
		return schema.NestingSingle
	case tfplugin6.Schema_NestedBlock_GROUP:
		return schema.NestingGroup
	case tfplugin6.Schema_NestedBlock_LIST:
		return schema.NestingList
	case tfplugin6.Schema_NestedBlock_SET:
		return schema.NestingSet
	case tfplugin6.Schema_NestedBlock_MAP:
		return schema.NestingMap
	default:
		return schema.NestingInvalid
	}
}

func objectNesting(in tfplugin6.Schema_Object_NestingMode) schema.Nesting {
	switch in {
	case tfplugin6.Schema_Object_SINGLE:
		return schema.NestingSingle
	case tfplugin6.Schema_Object_LIST:
		return schema.NestingList
	case tfplugin6.Schema_Object_SET:
		return schema.NestingSet
	case tfplugin6.Schema_Object_MAP:
		return schema.NestingMap
	default:
		return schema.NestingInvalid
	}
}
