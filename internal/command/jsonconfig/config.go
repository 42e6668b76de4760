package jsonconfig

import (
	"encoding/json"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// Config is the "configuration" section of the JSON plan representation.
type Config struct {
	ProviderConfigs map[string]ProviderConfig `json:"provider_config,omitempty"`
	RootModule      Module                    `json:"root_module"`
}

// ProviderConfig is one provider configuration anywhere in the module tree.
// It is keyed by its local address, prefixed with "MODULE:" outside the root
// module.
type ProviderConfig struct {
	Name              string         `json:"name,omitempty"`
	FullName          string         `json:"full_name,omitempty"`
	Alias             string         `json:"alias,omitempty"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	ModuleAddress     string         `json:"module_address,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
}

// Module is one module's declarations.
type Module struct {
	Outputs     map[string]Output     `json:"outputs,omitempty"`
	Resources   []Resource            `json:"resources,omitempty"`
	ModuleCalls map[string]ModuleCall `json:"module_calls,omitempty"`
	Variables   map[string]Variable   `json:"variables,omitempty"`
}

// Output is an output declaration.
type Output struct {
	Sensitive   bool       `json:"sensitive,omitempty"`
	Expression  Expression `json:"expression"`
	DependsOn   []string   `json:"depends_on,omitempty"`
	Description string     `json:"description,omitempty"`
}

// Variable is an input variable declaration, with OpenTofu's "type" (left
// out when there is no constraint) and "required" (no default), added in
// OpenTofu 1.11 (opentofu/opentofu#3013).
type Variable struct {
	Type        json.RawMessage `json:"type,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
}

// Resource is a resource or data block.
type Resource struct {
	Address           string         `json:"address,omitempty"`
	Mode              string         `json:"mode,omitempty"`
	Type              string         `json:"type,omitempty"`
	Name              string         `json:"name,omitempty"`
	ProviderConfigKey string         `json:"provider_config_key,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	SchemaVersion     uint64         `json:"schema_version"`
	CountExpression   *Expression    `json:"count_expression,omitempty"`
	ForEachExpression *Expression    `json:"for_each_expression,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

// ModuleCall is a module block with the module it calls.
type ModuleCall struct {
	Source            string         `json:"source,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	CountExpression   *Expression    `json:"count_expression,omitempty"`
	ForEachExpression *Expression    `json:"for_each_expression,omitempty"`
	Module            Module         `json:"module"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

// New renders cfg. Arguments of provider, resource and data blocks are
// found with their schemas; a block whose schema is missing shows no
// arguments rather than failing the whole rendering.
func New(cfg *config.Config, schemas *providers.Schemas) *Config {
	if cfg == nil {
		return &Config{}
	}
	return &Config{
		ProviderConfigs: providerConfigs(cfg, schemas),
		RootModule:      newModule(cfg, schemas),
	}
}

func newModule(cfg *config.Config, schemas *providers.Schemas) Module {
	mod := cfg.Module
	out := Module{Resources: resources(cfg, schemas)}
	if len(mod.Outputs) > 0 {
		out.Outputs = make(map[string]Output, len(mod.Outputs))
		for name, output := range mod.Outputs {
			out.Outputs[name] = Output{
				Sensitive:   output.Sensitive,
				Expression:  NewExpression(output.Expr),
				DependsOn:   dependsOn(output.DependsOn),
				Description: output.Description,
			}
		}
	}
	if len(mod.Variables) > 0 {
		out.Variables = make(map[string]Variable, len(mod.Variables))
		for name, variable := range mod.Variables {
			out.Variables[name] = Variable{
				Type:        variableType(variable),
				Default:     VariableDefault(variable),
				Description: variable.Description,
				Required:    variable.Default == nil,
				Sensitive:   variable.Sensitive,
				Ephemeral:   variable.Ephemeral,
				Deprecated:  variable.DeprecatedMessage,
			}
		}
	}
	if len(mod.ModuleCalls) > 0 {
		out.ModuleCalls = make(map[string]ModuleCall, len(mod.ModuleCalls))
		for name, call := range mod.ModuleCalls {
			out.ModuleCalls[name] = newModuleCall(call, cfg.Children[name], schemas)
		}
	}
	return out
}

func newModuleCall(call *config.ModuleCall, child *config.Config, schemas *providers.Schemas) ModuleCall {
	out := ModuleCall{
		Source:            call.SourceAddr,
		VersionConstraint: call.Version.Source,
		DependsOn:         dependsOn(call.DependsOn),
	}
	out.CountExpression, out.ForEachExpression = repetition(call.Count, call.ForEach)
	if child == nil {
		return out
	}
	// The call's arguments are the child's variables.
	variables := &schema.Block{Attributes: map[string]*schema.Attribute{}}
	for name := range child.Module.Variables {
		variables.Attributes[name] = &schema.Attribute{Type: cty.DynamicPseudoType, Optional: true}
	}
	out.Expressions = Expressions(call.Config, variables)
	out.Module = newModule(child, schemas)
	return out
}

// repetition renders count or for_each, leaving out an expression that is
// neither constant nor refers to anything, as the format does.
func repetition(count, forEach hcl.Expression) (*Expression, *Expression) {
	if expr := NewExpression(count); !expr.Empty() {
		return &expr, nil
	}
	if expr := NewExpression(forEach); !expr.Empty() {
		return nil, &expr
	}
	return nil, nil
}

// resources renders a module's resource blocks, managed ones first, each
// group ordered by address.
func resources(cfg *config.Config, schemas *providers.Schemas) []Resource {
	var managed, data []Resource
	for _, res := range cfg.Module.Resources {
		if res.Mode == addrs.EphemeralResourceMode {
			// Terraform's JSON leaves ephemeral blocks out of the
			// configuration; what refers to them names them.
			continue
		}
		rendered := Resource{
			Address:           res.Addr().String(),
			Mode:              resourceMode(res.Mode),
			Type:              res.Type,
			Name:              res.Name,
			ProviderConfigKey: resolveProviderKey(cfg, res.ProviderConfigAddr()),
			DependsOn:         dependsOn(res.DependsOn),
		}
		rendered.CountExpression, rendered.ForEachExpression = repetition(res.Count, res.ForEach)
		if resSchema, ok := schemas.ResourceType(res.Provider, res.Mode == addrs.DataResourceMode, res.Type); ok {
			rendered.SchemaVersion = uint64(resSchema.Version)
			rendered.Expressions = Expressions(res.Config, resSchema.Block)
		}
		if res.Mode == addrs.DataResourceMode {
			data = append(data, rendered)
		} else {
			managed = append(managed, rendered)
		}
	}
	for _, group := range [][]Resource{managed, data} {
		sort.Slice(group, func(i, j int) bool { return group[i].Address < group[j].Address })
	}
	return append(managed, data...)
}

func resourceMode(mode addrs.ResourceMode) string {
	if mode == addrs.DataResourceMode {
		return "data"
	}
	return "managed"
}

// dependsOn renders depends_on entries as the addresses they name.
func dependsOn(traversals []hcl.Traversal) []string {
	var out []string
	for _, traversal := range traversals {
		ref, diags := addrs.ParseRef(traversal)
		if diags.HasErrors() {
			continue // the loader has already reported it
		}
		out = append(out, ref.Subject.String())
	}
	return out
}

// variableType is a variable's type constraint as cty writes types in
// JSON, optional attributes included; nil when there is none ("any").
func variableType(variable *config.Variable) json.RawMessage {
	ty := variable.Type.Type
	if ty == cty.NilType || ty.Equals(cty.DynamicPseudoType) {
		return nil
	}
	raw, err := ty.MarshalJSON()
	if err != nil {
		return nil
	}
	return raw
}

// VariableDefault renders a variable's default converted to its type, or
// nil when it has none.
func VariableDefault(variable *config.Variable) json.RawMessage {
	if variable.Default == nil {
		return nil
	}
	val, diags := variable.Default.Value(nil)
	if diags.HasErrors() || !val.IsWhollyKnown() {
		return nil
	}
	if variable.Type.Type != cty.NilType && variable.Type.Type != cty.DynamicPseudoType {
		if variable.Type.Defaults != nil {
			val = variable.Type.Defaults.Apply(val)
		}
		if converted, err := convert.Convert(val, variable.Type.Type); err == nil {
			val = converted
		}
	}
	raw, err := ctyjson.Marshal(val, val.Type())
	if err != nil {
		return nil
	}
	return raw
}
