package states

import (
	"fmt"
	"slices"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/value"
)

// ObjectStatus says whether a remote object is usable.
type ObjectStatus byte

const (
	// ObjectReady is an object that was created (or updated) successfully.
	ObjectReady ObjectStatus = 'R'
	// ObjectTainted is an object whose creation did not finish cleanly (for
	// example, a provisioner failed); the next plan replaces it.
	ObjectTainted ObjectStatus = 'T'
)

func (s ObjectStatus) String() string {
	switch s {
	case ObjectReady:
		return "ready"
	case ObjectTainted:
		return "tainted"
	default:
		return fmt.Sprintf("ObjectStatus(%d)", byte(s))
	}
}

// ResourceInstanceObject is one remote object, decoded with its resource
// type's schema. Sensitive attributes carry marks.Sensitive on Value.
type ResourceInstanceObject struct {
	// Value is the object's attributes as the provider last reported them.
	Value cty.Value
	// Private is the provider's opaque data about the object.
	Private []byte
	// Identity is the object's resource identity, or a null value when the
	// provider has none.
	Identity              cty.Value
	IdentitySchemaVersion uint64
	Status                ObjectStatus
	// Dependencies are the resources this object depended on when it was
	// last applied; they order its destruction.
	Dependencies        []addrs.ConfigResource
	CreateBeforeDestroy bool
	// SkipDestroy is OpenTofu's skip_destroy: the resource said lifecycle
	// destroy = false when the object was last applied, so the object is
	// forgotten rather than destroyed.
	SkipDestroy bool
	// Pulumi is set for objects managed by a Pulumi resource provider.
	Pulumi *PulumiObject
}

// ResourceInstanceObjectSrc is a remote object in its stored encoding.
// Decoding needs the resource type's schema, which the engine only has once
// the provider is running, and most objects of a large state are never
// looked at in detail; so objects are kept encoded until Decode is called.
type ResourceInstanceObjectSrc struct {
	// SchemaVersion is the version of the resource type schema AttrsJSON
	// was written with; an older one must be upgraded by the provider.
	SchemaVersion uint64
	// AttrsJSON is the object's value as JSON. Exactly one of AttrsJSON and
	// AttrsFlat is set.
	AttrsJSON []byte
	// AttrsFlat is the legacy flatmap form written by Terraform before 0.12;
	// only the provider can upgrade it.
	AttrsFlat map[string]string
	// AttrsMsgpack, when set, is the same value as msgpack, which preserves
	// the exact types of dynamically-typed attributes that JSON loses.
	AttrsMsgpack []byte
	// SensitivePaths are the attributes to mark sensitive when decoding.
	SensitivePaths []cty.Path
	Private        []byte
	// IdentityJSON is the resource identity as JSON, or nil.
	IdentityJSON          []byte
	IdentitySchemaVersion uint64
	Status                ObjectStatus
	Dependencies          []addrs.ConfigResource
	CreateBeforeDestroy   bool
	SkipDestroy           bool
	Pulumi                *PulumiObject
}

// Decode decodes the object with its resource type's value type and, when
// the provider has one, identity type (cty.NilType otherwise). The stored
// schema version must be current: upgrading older objects is the provider's
// job (UpgradeResourceState), done before Decode.
func (src *ResourceInstanceObjectSrc) Decode(valueType, identityType cty.Type) (*ResourceInstanceObject, error) {
	var val cty.Value
	var err error
	switch {
	case len(src.AttrsMsgpack) > 0:
		val, err = value.DecodeMsgpack(src.AttrsMsgpack, valueType)
	case src.AttrsFlat != nil && src.AttrsJSON == nil:
		return nil, fmt.Errorf("the object is stored in the legacy flatmap form; the provider must upgrade it before it can be decoded")
	default:
		val, err = value.DecodeJSON(src.AttrsJSON, valueType)
	}
	if err != nil {
		return nil, fmt.Errorf("decoding the object's attributes: %w", err)
	}
	return src.DecodeWith(markSensitivePaths(val, src.SensitivePaths), identityType)
}

// DecodeWith makes the object with val as its value, one the caller already
// has (the provider's upgrade of the stored attributes, say), decoding only
// the identity, with identityType as Decode does.
func (src *ResourceInstanceObjectSrc) DecodeWith(val cty.Value, identityType cty.Type) (*ResourceInstanceObject, error) {
	identity := cty.NullVal(cty.DynamicPseudoType)
	if identityType != cty.NilType {
		identity = cty.NullVal(identityType)
		if len(src.IdentityJSON) > 0 {
			var err error
			if identity, err = value.DecodeJSON(src.IdentityJSON, identityType); err != nil {
				return nil, fmt.Errorf("decoding the object's identity: %w", err)
			}
		}
	}
	return &ResourceInstanceObject{
		Value:                 val,
		Private:               src.Private,
		Identity:              identity,
		IdentitySchemaVersion: src.IdentitySchemaVersion,
		Status:                src.Status,
		Dependencies:          src.Dependencies,
		CreateBeforeDestroy:   src.CreateBeforeDestroy,
		SkipDestroy:           src.SkipDestroy,
		Pulumi:                src.Pulumi,
	}, nil
}

// markSensitivePaths marks the values at paths as sensitive. A path that
// does not exist in val (the schema changed, or the attribute is null) is
// skipped rather than failing the whole object.
func markSensitivePaths(val cty.Value, paths []cty.Path) cty.Value {
	if len(paths) == 0 {
		return val
	}
	pvm := make([]cty.PathValueMarks, len(paths))
	for i, path := range paths {
		pvm[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(marks.Sensitive)}
	}
	return val.MarkWithPaths(pvm)
}

// Encode encodes the object with its resource type's value type and schema
// version, recording where the value is marked sensitive. The value must be
// wholly known: unknown values are never stored.
func (obj *ResourceInstanceObject) Encode(valueType cty.Type, schemaVersion uint64) (*ResourceInstanceObjectSrc, error) {
	if paths := marks.StoredEphemeral(obj.Value); len(paths) > 0 {
		return nil, fmt.Errorf("the value at %s is ephemeral and is never stored", value.FormatPath(paths[0]))
	}
	unmarked, pvm := obj.Value.UnmarkDeepWithPaths()
	if !unmarked.IsWhollyKnown() {
		return nil, fmt.Errorf("an object with unknown values cannot be stored; the provider must return final values")
	}
	attrs, err := value.EncodeJSON(unmarked, valueType)
	if err != nil {
		return nil, err
	}
	var sensitive []cty.Path
	for _, pv := range pvm {
		if _, ok := pv.Marks[marks.Sensitive]; ok {
			sensitive = append(sensitive, pv.Path)
		}
	}
	src := &ResourceInstanceObjectSrc{
		SchemaVersion:         schemaVersion,
		AttrsJSON:             attrs,
		SensitivePaths:        sensitive,
		Private:               obj.Private,
		IdentitySchemaVersion: obj.IdentitySchemaVersion,
		Status:                obj.Status,
		Dependencies:          obj.Dependencies,
		CreateBeforeDestroy:   obj.CreateBeforeDestroy,
		SkipDestroy:           obj.SkipDestroy,
		Pulumi:                obj.Pulumi,
	}
	if src.Status == 0 {
		src.Status = ObjectReady
	}
	if obj.Identity != cty.NilVal && !obj.Identity.IsNull() {
		identity, _ := obj.Identity.UnmarkDeep()
		if src.IdentityJSON, err = ctyjson.Marshal(identity, identity.Type()); err != nil {
			return nil, fmt.Errorf("encoding the object's identity: %w", err)
		}
	}
	return src, nil
}

// DeepCopy returns a copy of src that shares no mutable memory with it.
func (src *ResourceInstanceObjectSrc) DeepCopy() *ResourceInstanceObjectSrc {
	if src == nil {
		return nil
	}
	out := *src
	out.AttrsJSON = slices.Clone(src.AttrsJSON)
	out.AttrsMsgpack = slices.Clone(src.AttrsMsgpack)
	out.Private = slices.Clone(src.Private)
	out.IdentityJSON = slices.Clone(src.IdentityJSON)
	out.SensitivePaths = slices.Clone(src.SensitivePaths)
	out.Dependencies = slices.Clone(src.Dependencies)
	if src.AttrsFlat != nil {
		out.AttrsFlat = make(map[string]string, len(src.AttrsFlat))
		for k, v := range src.AttrsFlat {
			out.AttrsFlat[k] = v
		}
	}
	if src.Pulumi != nil {
		pulumi := src.Pulumi.deepCopy()
		out.Pulumi = &pulumi
	}
	return &out
}
