package pulumi

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/schema"
)

// The parts of a Pulumi package schema the host reads
// (https://www.pulumi.com/docs/iac/using-pulumi/extending-pulumi/schema/).
type packageSpec struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Config  struct {
		Variables map[string]propertySpec `json:"variables"`
		Required  []string                `json:"required"`
	} `json:"config"`
	Provider  *resourceSpec           `json:"provider"`
	Types     map[string]typeSpec     `json:"types"`
	Resources map[string]resourceSpec `json:"resources"`
	Functions map[string]functionSpec `json:"functions"`
	// Parameterization is set in a sub-package's schema: Parameter is the
	// provider's encoding of the parameters (base64 in the JSON).
	Parameterization *struct {
		Parameter []byte `json:"parameter"`
	} `json:"parameterization"`
}

// providerMethod reports whether token is a method of the provider
// resource (a bridged provider's terraformConfig): it takes the provider
// object as __self__, which a configuration cannot give, so it is no data
// source.
func (spec *packageSpec) providerMethod(token string) bool {
	if spec.Provider == nil {
		return false
	}
	for _, method := range spec.Provider.Methods {
		if method == token {
			return true
		}
	}
	return false
}

type typeRef struct {
	Type                 string    `json:"type"`
	Ref                  string    `json:"$ref"`
	Items                *typeRef  `json:"items"`
	AdditionalProperties *typeRef  `json:"additionalProperties"`
	OneOf                []typeRef `json:"oneOf"`
}

type propertySpec struct {
	typeRef
	Description          string `json:"description"`
	Secret               bool   `json:"secret"`
	ReplaceOnChanges     bool   `json:"replaceOnChanges"`
	WillReplaceOnChanges bool   `json:"willReplaceOnChanges"`
	DeprecationMessage   string `json:"deprecationMessage"`
}

type objectSpec struct {
	Properties map[string]propertySpec `json:"properties"`
	Required   []string                `json:"required"`
}

type typeSpec struct {
	objectSpec
	Type string            `json:"type"`
	Enum []json.RawMessage `json:"enum"`
}

type resourceSpec struct {
	objectSpec
	Description     string                  `json:"description"`
	InputProperties map[string]propertySpec `json:"inputProperties"`
	RequiredInputs  []string                `json:"requiredInputs"`
	IsComponent     bool                    `json:"isComponent"`
	// Methods names a component's methods' function tokens by method name.
	Methods map[string]string `json:"methods"`
}

type functionSpec struct {
	Description string      `json:"description"`
	Inputs      *objectSpec `json:"inputs"`
	Outputs     *objectSpec `json:"outputs"`
}

// Package is a provider's package schema turned into attribute schemas.
type Package struct {
	Name     string
	Version  string
	Provider schema.Schema
	// Parameter is a sub-package's parameterization.parameter: what
	// replays it with Parameterize's value form.
	Parameter   []byte
	Resources   map[string]*ResourceType // by type name (TypeName)
	DataSources map[string]*Function     // by data source name
	// names maps every snake_case attribute name back to its Pulumi
	// property name.
	names map[string]string
	// methods are the components' methods, by function token.
	methods map[string]*Method
}

// ResourceType is one resource token's schema and the facts calls need.
type ResourceType struct {
	Token  string
	Schema schema.Schema
	// ReplaceOnChanges lists the attributes whose change replaces the
	// object (replaceOnChanges in the schema).
	ReplaceOnChanges map[string]bool
	// Secret lists the attributes Pulumi marks secret.
	Secret map[string]bool
	// Inputs lists the attributes that are inputs (set in configuration).
	Inputs map[string]bool
	// Component is set for component resources, which Construct builds
	// out of child resources (see construct.go).
	Component bool
}

// Function is one function token, offered as a data source.
type Function struct {
	Token  string
	Schema schema.Schema
}

// maxTypeDepth bounds how deep object types nest before the rest is left
// dynamic: Pulumi types may be recursive, attribute schemas may not.
const maxTypeDepth = 8

// ParseSchema turns a package schema (GetSchema's JSON) into attribute
// schemas. Problems that leave a part unusable are error diagnostics naming
// the token; the rest of the package is still converted.
func ParseSchema(providerName string, raw []byte) (*Package, diags.Diagnostics) {
	var spec packageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Invalid provider schema",
			"The Pulumi provider %s returned a package schema that is not valid JSON: %s. This is a bug in the provider.", providerName, err)}
	}
	c := &converter{spec: &spec, names: map[string]string{"id": "id"}}
	pkg := &Package{
		Name: spec.Name, Version: spec.Version,
		Resources:   make(map[string]*ResourceType),
		DataSources: make(map[string]*Function),
		names:       c.names,
	}
	if spec.Parameterization != nil {
		pkg.Parameter = spec.Parameterization.Parameter
	}
	var problems diags.Diagnostics
	pkg.Provider = schema.Schema{Block: c.providerBlock()}
	for _, token := range sortedKeys(spec.Resources) {
		res := spec.Resources[token]
		name := TypeName(token)
		if other, taken := pkg.Resources[name]; taken {
			problems = append(problems, diags.Warnf("Resource type name collision",
				"The Pulumi provider %s has resources %s and %s, which both become %s; only the first is usable.", providerName, other.Token, token, name))
			continue
		}
		if res.IsComponent {
			pkg.Resources[name] = c.componentType(token, res)
			continue
		}
		pkg.Resources[name] = c.resourceType(token, res)
	}
	pkg.methods = c.componentMethods()
	for _, token := range sortedKeys(spec.Functions) {
		if pkg.isMethod(token) || spec.providerMethod(token) {
			continue // a component's method (see call.go), or the provider's
		}
		name := DataSourceName(token)
		if _, taken := pkg.DataSources[name]; taken {
			problems = append(problems, diags.Warnf("Data source name collision",
				"The Pulumi provider %s has several functions that become the data source %s; only %s is usable.", providerName, name, pkg.DataSources[name].Token))
			continue
		}
		pkg.DataSources[name] = &Function{Token: token, Schema: schema.Schema{Block: c.functionBlock(spec.Functions[token])}}
	}
	return pkg, append(problems, c.problems...)
}

// PulumiName returns the Pulumi property name of a snake_case attribute.
func (p *Package) PulumiName(attr string) string {
	if name, ok := p.names[attr]; ok {
		return name
	}
	return attr
}

type converter struct {
	spec     *packageSpec
	names    map[string]string
	problems diags.Diagnostics
}

// attrName records a property's snake_case name and returns it.
func (c *converter) attrName(property string) string {
	name := SnakeCase(property)
	if prior, ok := c.names[name]; ok && prior != property {
		c.problems = append(c.problems, diags.Warnf("Property name collision",
			"The Pulumi package %s has properties %q and %q, which both become the attribute %q; values are sent as %q.", c.spec.Name, prior, property, name, prior))
		return name
	}
	c.names[name] = property
	return name
}

func (c *converter) providerBlock() *schema.Block {
	inputs, required := c.spec.Config.Variables, c.spec.Config.Required
	if c.spec.Provider != nil && len(c.spec.Provider.InputProperties) > 0 {
		inputs, required = c.spec.Provider.InputProperties, c.spec.Provider.RequiredInputs
	}
	block := &schema.Block{Attributes: make(map[string]*schema.Attribute)}
	for _, name := range sortedKeys(inputs) {
		attr := c.attribute(inputs[name], 0, false)
		attr.Required = contains(required, name)
		attr.Optional = !attr.Required
		block.Attributes[c.attrName(name)] = attr
	}
	return block
}

// resourceType builds a resource's block: required inputs are Required,
// other inputs Optional and Computed (Check may fill in defaults), outputs
// that are not inputs Computed.
func (c *converter) resourceType(token string, res resourceSpec) *ResourceType {
	rt := &ResourceType{Token: token, ReplaceOnChanges: map[string]bool{}, Secret: map[string]bool{}, Inputs: map[string]bool{}}
	block := &schema.Block{Attributes: map[string]*schema.Attribute{
		"id": {Type: cty.String, Computed: true, Description: "The ID the provider assigned to the object."},
	}, Description: res.Description}
	for _, name := range sortedKeys(res.InputProperties) {
		prop := res.InputProperties[name]
		attr := c.attribute(prop, 0, false)
		attr.Required = contains(res.RequiredInputs, name)
		attr.Optional, attr.Computed = !attr.Required, !attr.Required
		tfName := c.attrName(name)
		block.Attributes[tfName] = attr
		rt.Inputs[tfName] = true
		if prop.ReplaceOnChanges || prop.WillReplaceOnChanges {
			rt.ReplaceOnChanges[tfName] = true
		}
	}
	for _, name := range sortedKeys(res.Properties) {
		prop := res.Properties[name]
		tfName := c.attrName(name)
		if prop.ReplaceOnChanges || prop.WillReplaceOnChanges {
			rt.ReplaceOnChanges[tfName] = true
		}
		if existing, ok := block.Attributes[tfName]; ok {
			existing.Sensitive = existing.Sensitive || prop.Secret
			continue
		}
		block.Attributes[tfName] = c.attribute(prop, 0, true)
		block.Attributes[tfName].Computed = true
	}
	for name, attr := range block.Attributes {
		if attr.Sensitive {
			rt.Secret[name] = true
		}
	}
	rt.Schema = schema.Schema{Block: block}
	return rt
}

// functionBlock builds a data source block: inputs are arguments, outputs
// computed attributes.
func (c *converter) functionBlock(fn functionSpec) *schema.Block {
	block := &schema.Block{Attributes: make(map[string]*schema.Attribute), Description: fn.Description}
	if fn.Inputs != nil {
		for _, name := range sortedKeys(fn.Inputs.Properties) {
			attr := c.attribute(fn.Inputs.Properties[name], 0, false)
			attr.Required = contains(fn.Inputs.Required, name)
			attr.Optional = !attr.Required
			block.Attributes[c.attrName(name)] = attr
		}
	}
	if fn.Outputs != nil {
		for _, name := range sortedKeys(fn.Outputs.Properties) {
			tfName := c.attrName(name)
			if existing, ok := block.Attributes[tfName]; ok {
				existing.Computed = !existing.Required
				continue
			}
			attr := c.attribute(fn.Outputs.Properties[name], 0, true)
			attr.Computed = true
			block.Attributes[tfName] = attr
		}
	}
	return block
}

// attribute converts one property. Object types become nested attribute
// types (single, list or map nesting) so that their optional members may
// be left out in configuration; computedOnly marks every member computed.
func (c *converter) attribute(prop propertySpec, depth int, computedOnly bool) *schema.Attribute {
	attr := &schema.Attribute{Description: prop.Description, Sensitive: prop.Secret, Deprecated: prop.DeprecationMessage != ""}
	if prop.Ref == assetRef || prop.Ref == archiveRef {
		attr.NestedType = fileObject(prop.Ref == assetRef, computedOnly)
		return attr
	}
	nesting, object := c.objectNesting(prop.typeRef)
	if object != nil && depth < maxTypeDepth {
		attr.NestedType = c.nestedObject(object, nesting, depth+1, computedOnly)
		return attr
	}
	attr.Type = c.ctyType(prop.typeRef, depth)
	return attr
}

// objectNesting reports whether ref is an object type, directly or as the
// element of an array or map, and how it nests.
func (c *converter) objectNesting(ref typeRef) (schema.Nesting, *typeSpec) {
	switch {
	case ref.Ref != "":
		if t := c.localType(ref.Ref); t != nil && t.Type == "object" && len(t.Enum) == 0 {
			return schema.NestingSingle, t
		}
	case ref.Type == "array" && ref.Items != nil && ref.Items.Ref != "":
		if t := c.localType(ref.Items.Ref); t != nil && t.Type == "object" && len(t.Enum) == 0 {
			return schema.NestingList, t
		}
	case ref.Type == "object" && ref.AdditionalProperties != nil && ref.AdditionalProperties.Ref != "":
		if t := c.localType(ref.AdditionalProperties.Ref); t != nil && t.Type == "object" && len(t.Enum) == 0 {
			return schema.NestingMap, t
		}
	}
	return schema.NestingInvalid, nil
}

func (c *converter) nestedObject(t *typeSpec, nesting schema.Nesting, depth int, computedOnly bool) *schema.Object {
	obj := &schema.Object{Nesting: nesting, Attributes: make(map[string]*schema.Attribute)}
	for _, name := range sortedKeys(t.Properties) {
		attr := c.attribute(t.Properties[name], depth, computedOnly)
		switch {
		case computedOnly:
			attr.Computed = true
		case contains(t.Required, name):
			attr.Required = true
		default:
			attr.Optional, attr.Computed = true, true
		}
		obj.Attributes[c.attrName(name)] = attr
	}
	return obj
}

// fileObject is the nested object an asset or archive property becomes
// (see assetType): the source attributes are set in configuration, the
// hash comes from the provider.
func fileObject(isAsset, computedOnly bool) *schema.Object {
	sources := []string{"path", "uri"}
	if isAsset {
		sources = append(sources, "text")
	}
	obj := &schema.Object{Nesting: schema.NestingSingle, Attributes: map[string]*schema.Attribute{
		"hash": {Type: cty.String, Computed: true, Description: "SHA-256 of the contents, as the provider computed it."},
	}}
	for _, name := range sources {
		obj.Attributes[name] = &schema.Attribute{Type: cty.String, Optional: !computedOnly, Computed: computedOnly}
	}
	return obj
}

// localType resolves "#/types/TOKEN"; references to other packages' types
// are not followed.
func (c *converter) localType(ref string) *typeSpec {
	token, ok := strings.CutPrefix(ref, "#/types/")
	if !ok {
		return nil
	}
	if t, ok := c.spec.Types[token]; ok {
		return &t
	}
	return nil
}

// ctyType is the value type of a property. Assets, archives, Any, Json,
// unions and other packages' types are dynamic.
func (c *converter) ctyType(ref typeRef, depth int) cty.Type {
	if depth > maxTypeDepth {
		return cty.DynamicPseudoType
	}
	switch ref.Ref {
	case assetRef:
		return assetType
	case archiveRef:
		return archiveType
	}
	if ref.Ref != "" {
		t := c.localType(ref.Ref)
		switch {
		case t == nil:
			return cty.DynamicPseudoType
		case t.Type == "object" && len(t.Enum) == 0:
			attrs := make(map[string]cty.Type)
			for _, name := range sortedKeys(t.Properties) {
				attrs[c.attrName(name)] = c.ctyType(t.Properties[name].typeRef, depth+1)
			}
			return cty.Object(attrs)
		default:
			return c.ctyType(typeRef{Type: t.Type}, depth)
		}
	}
	switch ref.Type {
	case "string":
		return cty.String
	case "integer", "number":
		return cty.Number
	case "boolean":
		return cty.Bool
	case "array":
		if ref.Items == nil {
			return cty.List(cty.DynamicPseudoType)
		}
		return cty.List(c.ctyType(*ref.Items, depth+1))
	case "object":
		if ref.AdditionalProperties == nil {
			return cty.Map(cty.DynamicPseudoType)
		}
		return cty.Map(c.ctyType(*ref.AdditionalProperties, depth+1))
	}
	return cty.DynamicPseudoType
}

func contains(list []string, s string) bool {
	for _, item := range list {
		if item == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
