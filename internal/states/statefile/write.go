package statefile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
)

// Write writes f as a state v4 file, laid out as OpenTofu lays it out:
// resources ordered by module, mode, type and name, instances by key, on
// one line (OpenTofu 1.12 writes its state files unindented). Open intents are not part of the format and are
// not written; Terrane refuses to export a state that has any (see
// OpenIntents).
func Write(f *File, w io.Writer) error {
	if f == nil || f.State == nil {
		return errors.New("there is no state to write")
	}
	raw := stateV4{
		Version:          4,
		TerraformVersion: f.TerraformVersion,
		Serial:           f.Serial,
		Lineage:          f.Lineage,
		Outputs:          map[string]outputV4{},
		Resources:        []resourceV4{},
		CheckResults:     json.RawMessage("null"),
		Unrecorded:       f.Unrecorded,
	}
	if len(f.State.CheckResultsJSON) > 0 {
		raw.CheckResults = f.State.CheckResultsJSON
	}
	var errs []error
	for name, output := range f.State.Outputs {
		encoded, err := encodeOutput(output)
		if err != nil {
			errs = append(errs, fmt.Errorf("output %q: %w", name, err))
			continue
		}
		raw.Outputs[name] = encoded
	}
	for _, res := range f.State.SortedResources() {
		encoded, err := encodeResource(res)
		errs = append(errs, err)
		raw.Resources = append(raw.Resources, encoded)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	src, err := json.Marshal(raw)
	if err != nil {
		return fmt.Errorf("encoding the state file: %w", err)
	}
	if _, err := w.Write(append(src, '\n')); err != nil {
		return fmt.Errorf("writing the state file: %w", err)
	}
	return nil
}

// OpenIntents lists the instances of state with an open intent. A state
// file cannot express them, so an export must stop until they are resolved.
func OpenIntents(state *states.State) []addrs.AbsResourceInstance {
	var out []addrs.AbsResourceInstance
	for _, entry := range state.AllResourceInstances() {
		if entry.Instance.Intent != nil {
			out = append(out, entry.Addr)
		}
	}
	return out
}

func encodeOutput(output *states.OutputValue) (outputV4, error) {
	val, _ := output.Value.UnmarkDeep()
	if !val.IsWhollyKnown() {
		return outputV4{}, errors.New("the value is not known yet; a state file cannot hold unknown values")
	}
	value, err := ctyjson.Marshal(val, val.Type())
	if err != nil {
		return outputV4{}, err
	}
	ty, err := ctyjson.MarshalType(val.Type())
	if err != nil {
		return outputV4{}, err
	}
	return outputV4{Value: value, Type: ty, Sensitive: output.Sensitive}, nil
}

func encodeResource(res *states.Resource) (resourceV4, error) {
	raw := resourceV4{
		Mode:      "managed",
		Type:      res.Addr.Resource.Type,
		Name:      res.Addr.Resource.Name,
		Each:      string(res.EachMode),
		Provider:  res.ProviderConfig.String(),
		Instances: []instanceV4{},
	}
	if !res.Addr.Module.IsRoot() {
		raw.Module = res.Addr.Module.String()
	}
	if res.Addr.Resource.Mode == addrs.DataResourceMode {
		raw.Mode = "data"
	}
	// As OpenTofu, a resource whose instances use instances of a provider
	// configuration with for_each names the provider with each instance.
	keyed := hasProviderKeys(res)
	if keyed {
		raw.Provider = ""
	}
	var errs []error
	for _, key := range res.SortedInstanceKeys() {
		inst := res.Instances[key]
		addr := res.Addr.Instance(key)
		provider := ""
		if keyed {
			provider = res.ProviderConfig.Instance(inst.ProviderKey).String()
		}
		if inst.Current != nil {
			encoded, err := encodeObject(inst.Current, key, addrs.NotDeposed)
			encoded.Provider = provider
			errs = append(errs, wrapInstanceErr(addr, err))
			raw.Instances = append(raw.Instances, encoded)
		}
		for _, deposedKey := range inst.SortedDeposedKeys() {
			encoded, err := encodeObject(inst.Deposed[deposedKey], key, deposedKey)
			encoded.Provider = provider
			errs = append(errs, wrapInstanceErr(addr, err))
			raw.Instances = append(raw.Instances, encoded)
		}
	}
	return raw, errors.Join(errs...)
}

func hasProviderKeys(res *states.Resource) bool {
	for _, inst := range res.Instances {
		if inst.ProviderKey != addrs.NoKey {
			return true
		}
	}
	return false
}

func wrapInstanceErr(addr addrs.AbsResourceInstance, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("resource instance %s: %w", addr, err)
}

func encodeObject(obj *states.ResourceInstanceObjectSrc, key addrs.InstanceKey, deposed addrs.DeposedKey) (instanceV4, error) {
	raw := instanceV4{
		Deposed:             string(deposed),
		SchemaVersion:       obj.SchemaVersion,
		AttributesFlat:      obj.AttrsFlat,
		Private:             obj.Private,
		CreateBeforeDestroy: obj.CreateBeforeDestroy,
		SkipDestroy:         obj.SkipDestroy,
	}
	if len(obj.AttrsJSON) > 0 {
		raw.Attributes = obj.AttrsJSON
	}
	var err error
	if raw.IndexKey, err = encodeInstanceKey(key); err != nil {
		return raw, err
	}
	if obj.Status == states.ObjectTainted {
		raw.Status = "tainted"
	}
	if raw.SensitiveAttributes, err = marshalPaths(obj.SensitivePaths); err != nil {
		return raw, fmt.Errorf("sensitive attribute paths: %w", err)
	}
	// OpenTofu writes identity_schema_version beside an identity and
	// never alone: an object without identity has no identity schema.
	if len(obj.IdentityJSON) > 0 {
		version := obj.IdentitySchemaVersion
		raw.Identity, raw.IdentitySchemaVersion = obj.IdentityJSON, &version
	}
	for _, dep := range obj.Dependencies {
		raw.Dependencies = append(raw.Dependencies, dep.String())
	}
	return raw, nil
}

func encodeInstanceKey(key addrs.InstanceKey) (json.RawMessage, error) {
	switch key := key.(type) {
	case nil:
		return nil, nil
	case addrs.IntKey:
		return json.Marshal(int(key))
	case addrs.StringKey:
		return json.Marshal(string(key))
	default:
		return nil, fmt.Errorf("unsupported instance key %T", key)
	}
}
