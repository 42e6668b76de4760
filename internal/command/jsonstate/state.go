package jsonstate

import (
	"encoding/json"
	"fmt"
	"sort"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// FormatVersion is the version of the JSON state representation this
// package writes; consumers refuse a major version they do not know.
const FormatVersion = "1.0"

// State is the JSON representation of a state.
type State struct {
	FormatVersion    string `json:"format_version,omitempty"`
	TerraformVersion string `json:"terraform_version,omitempty"`
	// Values is nil for an empty state, which Terraform prints as nothing
	// but the format version.
	Values *Values       `json:"values,omitempty"`
	Checks []CheckResult `json:"checks,omitempty"`
}

// Values are the root outputs and the module tree of resource instances;
// the plan representation uses the same shape for its prior and planned
// values.
type Values struct {
	Outputs    map[string]Output `json:"outputs,omitempty"`
	RootModule Module            `json:"root_module"`
}

// Output is one root module output value.
type Output struct {
	Sensitive bool            `json:"sensitive"`
	Value     json.RawMessage `json:"value,omitempty"`
	Type      json.RawMessage `json:"type,omitempty"`
}

// Module is the resources of one module instance and the module instances
// it calls. The root module has no address.
type Module struct {
	Resources    []Resource `json:"resources,omitempty"`
	Address      string     `json:"address,omitempty"`
	ChildModules []Module   `json:"child_modules,omitempty"`
}

// Resource is one object of a resource instance: its current object, or a
// deposed one when DeposedKey is set.
type Resource struct {
	Address string `json:"address,omitempty"`
	Mode    string `json:"mode,omitempty"`
	Type    string `json:"type,omitempty"`
	Name    string `json:"name,omitempty"`
	// Index is the instance key (a number or a string), absent without
	// count or for_each.
	Index         json.RawMessage `json:"index,omitempty"`
	ProviderName  string          `json:"provider_name"`
	SchemaVersion uint64          `json:"schema_version"`
	// AttributeValues leaves out unknown values; SensitiveValues mirrors
	// the values with true where they are sensitive.
	AttributeValues       AttributeValues `json:"values,omitempty"`
	SensitiveValues       json.RawMessage `json:"sensitive_values,omitempty"`
	DependsOn             []string        `json:"depends_on,omitempty"`
	Tainted               bool            `json:"tainted,omitempty"`
	DeposedKey            string          `json:"deposed_key,omitempty"`
	Identity              json.RawMessage `json:"identity,omitempty"`
	IdentitySchemaVersion *uint64         `json:"identity_schema_version,omitempty"`
}

// ResourceMode spells a resource mode as the JSON formats do.
func ResourceMode(mode addrs.ResourceMode) string {
	switch mode {
	case addrs.DataResourceMode:
		return "data"
	case addrs.EphemeralResourceMode:
		return "ephemeral"
	}
	return "managed"
}

// InstanceIndex renders an instance key for the "index" property: nil for
// no key, a JSON number or string otherwise.
func InstanceIndex(key addrs.InstanceKey) (json.RawMessage, error) {
	if key == addrs.NoKey {
		return nil, nil
	}
	val := key.Value()
	return ctyjson.Marshal(val, val.Type())
}

// New renders state, decoding each object with its resource type's schema
// from schemas. engineVersion is reported as "terraform_version". An empty
// state renders as the format version alone, as Terraform's does.
func New(state *states.State, schemas *providers.Schemas, engineVersion string) (*State, error) {
	out := &State{FormatVersion: FormatVersion}
	if state == nil || (len(state.Modules) == 0 && len(state.Outputs) == 0) {
		return out, nil
	}
	out.TerraformVersion = engineVersion
	values, err := NewValues(state, schemas)
	if err != nil {
		return nil, err
	}
	out.Values = values
	checks, err := ChecksFromStateJSON(state.CheckResultsJSON)
	if err != nil {
		return nil, err
	}
	out.Checks = checks
	return out, nil
}

// Marshal is New encoded as JSON.
func Marshal(state *states.State, schemas *providers.Schemas, engineVersion string) ([]byte, error) {
	out, err := New(state, schemas, engineVersion)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// NewValues renders the outputs and resource instances of state.
func NewValues(state *states.State, schemas *providers.Schemas) (*Values, error) {
	outputs, err := NewOutputs(state.Outputs)
	if err != nil {
		return nil, err
	}
	byModule := map[string][]Resource{}
	for _, res := range state.SortedResources() {
		objects, err := resourceObjects(res, schemas)
		if err != nil {
			return nil, err
		}
		key := res.Addr.Module.String()
		byModule[key] = append(byModule[key], objects...)
	}
	moduleAddrs := make([]addrs.ModuleInstance, 0, len(state.Modules))
	for _, mod := range state.Modules {
		moduleAddrs = append(moduleAddrs, mod.Addr)
	}
	return &Values{Outputs: outputs, RootModule: BuildModuleTree(moduleAddrs, byModule)}, nil
}

// NewOutputs renders root output values, sensitive ones included: the
// "sensitive" flag tells consumers to hide them.
func NewOutputs(outputs map[string]*states.OutputValue) (map[string]Output, error) {
	if len(outputs) == 0 {
		return nil, nil
	}
	out := make(map[string]Output, len(outputs))
	for name, output := range outputs {
		val, _ := output.Value.UnmarkDeep()
		value, err := ctyjson.Marshal(val, val.Type())
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		ty, err := ctyjson.MarshalType(val.Type())
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		out[name] = Output{Sensitive: output.Sensitive, Value: value, Type: ty}
	}
	return out, nil
}

// BuildModuleTree arranges resources, grouped by module instance address
// string, into the root module and its nested child modules. moduleAddrs
// lists the module instances that must appear even without resources of
// their own; their ancestors appear too. Child modules are ordered by
// address, as Terraform orders them.
func BuildModuleTree(moduleAddrs []addrs.ModuleInstance, resources map[string][]Resource) Module {
	children := map[string]map[string]bool{}
	addChain := func(addr addrs.ModuleInstance) {
		for ; !addr.IsRoot(); addr = addr.Parent() {
			parent := addr.Parent().String()
			if children[parent] == nil {
				children[parent] = map[string]bool{}
			}
			children[parent][addr.String()] = true
		}
	}
	for _, addr := range moduleAddrs {
		addChain(addr)
	}
	var build func(addr string) Module
	build = func(addr string) Module {
		mod := Module{Address: addr, Resources: resources[addr]}
		names := make([]string, 0, len(children[addr]))
		for child := range children[addr] {
			names = append(names, child)
		}
		sort.Strings(names)
		for _, child := range names {
			mod.ChildModules = append(mod.ChildModules, build(child))
		}
		return mod
	}
	return build("")
}
