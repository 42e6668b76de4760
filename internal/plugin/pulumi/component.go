package pulumi

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// childrenAttr is the computed attribute of every component type that
// lists its children by name: what a plan shows changing inside it.
const childrenAttr = "children"

// childObjectType is one entry of the children attribute. inputs is the
// JSON of the inputs Check returned, secrets redacted, so a plan shows
// which inputs of which child change; id is unknown while the child is
// still to be created or replaced.
var childObjectType = cty.Object(map[string]cty.Type{
	"type": cty.String, "urn": cty.String, "id": cty.String, "inputs": cty.String,
})

// redactedSecret stands in for a secret in a child's inputs JSON.
const redactedSecret = "(sensitive)"

// componentPrivate is a component's private data: its URN and seed, and
// every child it registered, in registration order. It is the adapter's
// source of truth for the children, so updating and deleting the
// component needs nothing more from the engine.
type componentPrivate struct {
	URN      string           `json:"urn"`
	Seed     []byte           `json:"seed"`
	Children []componentChild `json:"children"`
}

// componentChild is one child resource: what the next Check, Diff,
// Update or Delete of it needs.
type componentChild struct {
	URN     string          `json:"urn"`
	Type    string          `json:"type"`
	Name    string          `json:"name"`
	ID      string          `json:"id"`
	Inputs  json.RawMessage `json:"inputs,omitempty"`
	Outputs json.RawMessage `json:"outputs,omitempty"`
	// Deposed marks the old object of a replaced child whose delete
	// failed: the next apply of the component deletes it.
	Deposed bool `json:"deposed,omitempty"`
	// pending, in a plan only, marks a child still to be created or
	// replaced: its ID is not known yet.
	pending bool
}

// decodeComponentPrivate reads a component's private bytes; empty bytes
// (a new component) yield a fresh URN and seed.
func decodeComponentPrivate(raw []byte, rt *ResourceType) (componentPrivate, error) {
	base, err := decodePrivate(raw, rt.Token)
	if err != nil {
		return componentPrivate{}, err
	}
	data := componentPrivate{URN: base.URN, Seed: base.Seed}
	if len(raw) > 0 {
		var stored componentPrivate
		if err := json.Unmarshal(raw, &stored); err != nil {
			return data, fmt.Errorf("the stored component children are unreadable: %w", err)
		}
		data.Children = stored.Children
	}
	return data, nil
}

func (d componentPrivate) encode() []byte {
	raw, _ := json.Marshal(d)
	return raw
}

func (d componentPrivate) name() string { return privateData{URN: d.URN}.name() }

// childSeed derives a child's random seed from the component's seed and
// the child's URN: stable for the child's life without storing it, and
// different for every child.
func childSeed(componentSeed []byte, urn string) []byte {
	sum := sha256.Sum256(append(append([]byte(nil), componentSeed...), urn...))
	return sum[:]
}

func wireJSON(s *structpb.Struct) json.RawMessage {
	if s == nil {
		return nil
	}
	raw, _ := protojson.Marshal(s)
	return raw
}

func wireStruct(raw json.RawMessage) (*structpb.Struct, error) {
	return wireStructOf(raw, "child's properties")
}

// wireValue converts stored wire properties to a value of type ty.
func (p *Package) wireValue(raw json.RawMessage, ty cty.Type) (cty.Value, error) {
	s, err := wireStruct(raw)
	if err != nil {
		return cty.NilVal, err
	}
	props, err := plugin.UnmarshalProperties(s, unmarshalOptions)
	if err != nil {
		return cty.NilVal, err
	}
	return p.fromProperty(resource.NewObjectProperty(props), ty)
}

// resourceByToken finds a resource or component type by its token.
func (p *Package) resourceByToken(token string) *ResourceType {
	for _, rt := range p.Resources {
		if rt.Token == token {
			return rt
		}
	}
	return nil
}

// componentType adds what a component type has beyond a resource type:
// the children attribute, and no replacement on any change (a changed
// input reaches the children through Construct instead).
func (c *converter) componentType(token string, res resourceSpec) *ResourceType {
	rt := c.resourceType(token, res)
	rt.Component = true
	rt.ReplaceOnChanges = map[string]bool{}
	rt.Schema.Block.Attributes["id"].Description = "The component's URN."
	rt.Schema.Block.Attributes[childrenAttr] = &schema.Attribute{
		Type: cty.Map(childObjectType), Computed: true,
		Description: "The resources the component created, by name: their type, URN, ID and inputs.",
	}
	return rt
}

// childrenValue is the children attribute for a list of children.
func childrenValue(children []componentChild) cty.Value {
	if len(children) == 0 {
		return cty.MapValEmpty(childObjectType)
	}
	// A name shared by children of different types (their URNs differ)
	// qualifies every one of them with the type, whatever the order the
	// component registered them in.
	named := make(map[string]int, len(children))
	for _, child := range children {
		named[child.Name]++
	}
	entries := make(map[string]cty.Value, len(children))
	for _, child := range children {
		id := cty.StringVal(child.ID)
		if child.pending {
			id = cty.UnknownVal(cty.String)
		}
		key := child.Name
		if named[key] > 1 {
			key = child.Name + " (" + child.Type + ")"
		}
		entries[key] = cty.ObjectVal(map[string]cty.Value{
			"type": cty.StringVal(child.Type), "urn": cty.StringVal(child.URN), "id": id,
			"inputs": redactedJSONValue(child.Inputs),
		})
	}
	return cty.MapVal(entries)
}

// redactedJSONValue renders wire properties as JSON with secrets
// redacted; unknown while any of them is unknown.
func redactedJSONValue(raw json.RawMessage) cty.Value {
	out, known := RedactedJSON(raw)
	if !known {
		return cty.UnknownVal(cty.String)
	}
	return cty.StringVal(string(out))
}

// RedactedJSON renders wire properties (protojson of a marshalled
// property map) as plain JSON with every secret replaced by
// "(sensitive)"; known is false when a value is not known yet.
func RedactedJSON(raw json.RawMessage) (out []byte, known bool) {
	s, err := wireStruct(raw)
	if err != nil || s == nil {
		return []byte("{}"), err == nil
	}
	props, err := plugin.UnmarshalProperties(s, unmarshalOptions)
	if err != nil {
		return []byte("{}"), true
	}
	plain, known := plainProperty(resource.NewObjectProperty(props))
	out, _ = json.Marshal(plain)
	return out, known
}

func plainProperty(pv resource.PropertyValue) (any, bool) {
	switch {
	case pv.IsComputed() || (pv.IsOutput() && !pv.OutputValue().Known):
		return nil, false
	case pv.IsOutput():
		if pv.OutputValue().Secret {
			return redactedSecret, true
		}
		return plainProperty(pv.OutputValue().Element)
	case pv.IsSecret():
		return redactedSecret, true
	case pv.IsArray():
		items := make([]any, 0, len(pv.ArrayValue()))
		known := true
		for _, item := range pv.ArrayValue() {
			plain, itemKnown := plainProperty(item)
			items, known = append(items, plain), known && itemKnown
		}
		return items, known
	case pv.IsObject():
		obj := make(map[string]any, len(pv.ObjectValue()))
		known := true
		keys := make([]string, 0, len(pv.ObjectValue()))
		for key := range pv.ObjectValue() {
			keys = append(keys, string(key))
		}
		sort.Strings(keys)
		for _, key := range keys {
			plain, itemKnown := plainProperty(pv.ObjectValue()[resource.PropertyKey(key)])
			obj[key], known = plain, known && itemKnown
		}
		return obj, known
	case pv.IsResourceReference():
		return string(pv.ResourceReferenceValue().URN), true
	case pv.IsAsset() || pv.IsArchive():
		return pv.TypeString(), true
	}
	return pv.V, true
}

// providerChildren lists children for the engine to record; never nil,
// so the engine knows the object is a component. The old object of a
// replaced child left deposed shares its URN with the replacement and is
// left out: it stays in the private data until it is deleted.
func providerChildren(children []componentChild) []providers.ComponentChild {
	current := make(map[string]bool, len(children))
	for _, child := range children {
		if !child.Deposed {
			current[child.URN] = true
		}
	}
	out := make([]providers.ComponentChild, 0, len(children))
	for _, child := range children {
		if child.Deposed && current[child.URN] {
			continue
		}
		outputs, _ := RedactedJSON(child.Outputs)
		out = append(out, providers.ComponentChild{TypeToken: child.Type, Name: child.Name, URN: child.URN, ID: child.ID, OutputsJSON: outputs})
	}
	return out
}
