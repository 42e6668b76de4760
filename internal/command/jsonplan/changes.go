package jsonplan

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// ResourceChange is a planned change to one object of a resource instance.
type ResourceChange struct {
	Address         string          `json:"address,omitempty"`
	PreviousAddress string          `json:"previous_address,omitempty"`
	ModuleAddress   string          `json:"module_address,omitempty"`
	Mode            string          `json:"mode,omitempty"`
	Type            string          `json:"type,omitempty"`
	Name            string          `json:"name,omitempty"`
	Index           json.RawMessage `json:"index,omitempty"`
	ProviderName    string          `json:"provider_name,omitempty"`
	DeposedKey      string          `json:"deposed,omitempty"`
	Change          Change          `json:"change"`
	ActionReason    string          `json:"action_reason,omitempty"`
}

// Change is the before and after of one object or output. Unknown parts of
// After are left out of it and shown as true in AfterUnknown; sensitive
// parts are shown as true in the sensitive mirrors.
type Change struct {
	Actions         []string        `json:"actions,omitempty"`
	Before          json.RawMessage `json:"before,omitempty"`
	After           json.RawMessage `json:"after,omitempty"`
	AfterUnknown    json.RawMessage `json:"after_unknown,omitempty"`
	BeforeSensitive json.RawMessage `json:"before_sensitive,omitempty"`
	AfterSensitive  json.RawMessage `json:"after_sensitive,omitempty"`
	ReplacePaths    json.RawMessage `json:"replace_paths,omitempty"`
	Importing       *Importing      `json:"importing,omitempty"`
	GeneratedConfig string          `json:"generated_config,omitempty"`
	BeforeIdentity  json.RawMessage `json:"before_identity,omitempty"`
	AfterIdentity   json.RawMessage `json:"after_identity,omitempty"`
}

// Importing describes the import a change performs.
type Importing struct {
	ID       string          `json:"id,omitempty"`
	Unknown  bool            `json:"unknown,omitempty"`
	Identity json.RawMessage `json:"identity,omitempty"`
}

// Actions spells an action as the "actions" list: a replacement is its two
// steps in order.
func Actions(action plans.Action) []string {
	switch action {
	case plans.DeleteThenCreate:
		return []string{"delete", "create"}
	case plans.CreateThenDelete:
		return []string{"create", "delete"}
	case plans.CreateThenForget:
		return []string{"create", "forget"}
	case plans.ForgetThenCreate:
		return []string{"forget", "create"}
	default:
		return []string{action.String()}
	}
}

// renderer decodes changes with their resource types' schemas.
type renderer struct {
	schemas *providers.Schemas
}

// changes fills the sections that come from plan.Changes and the drift.
func (r renderer) changes(plan *plans.Plan, out *Plan) error {
	var err error
	if out.ResourceChanges, err = r.resourceChanges(plan.Changes.Resources); err != nil {
		return err
	}
	if out.ResourceDrift, err = r.resourceChanges(reportedDrift(plan)); err != nil {
		return fmt.Errorf("drift: %w", err)
	}
	for _, deferred := range plan.Deferred {
		change, _, err := r.resourceChange(deferred.Change)
		if err != nil {
			return fmt.Errorf("deferred change: %w", err)
		}
		out.DeferredChanges = append(out.DeferredChanges, DeferredResourceChange{Reason: deferred.Reason.String(), ResourceChange: change})
	}
	if out.OutputChanges, err = outputChanges(plan.Changes.Outputs); err != nil {
		return err
	}
	out.PlannedValues, err = r.plannedValues(plan.Changes)
	return err
}

// reportedDrift is the drift worth reporting. Outside refresh-only mode an
// object that only moved is already among the planned changes (with its
// previous address), so it is not repeated as drift.
func reportedDrift(plan *plans.Plan) []*plans.ResourceInstanceChangeSrc {
	if plan.UIMode == plans.RefreshOnlyMode {
		return plan.DriftedResources
	}
	var drift []*plans.ResourceInstanceChangeSrc
	for _, change := range plan.DriftedResources {
		if change.Action != plans.NoOp {
			drift = append(drift, change)
		}
	}
	return drift
}

func (r renderer) resourceChanges(changes []*plans.ResourceInstanceChangeSrc) ([]ResourceChange, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	// OpenTofu's order: root module first, data before managed, count
	// instances numerically (see addrs.AbsResourceInstance.Less).
	sorted := append([]*plans.ResourceInstanceChangeSrc(nil), changes...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Addr, sorted[j].Addr
		if !a.Equal(b) {
			return a.Less(b)
		}
		return sorted[i].DeposedKey < sorted[j].DeposedKey
	})
	out := make([]ResourceChange, 0, len(sorted))
	for _, src := range sorted {
		if src.Action == plans.Delete && src.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
			// Forgetting a data source's last result is bookkeeping, not a
			// change anyone makes; OpenTofu leaves it out.
			continue
		}
		change, _, err := r.resourceChange(src)
		if err != nil {
			return nil, err
		}
		out = append(out, change)
	}
	return out, nil
}

// decode decodes a change with its resource type's schema. The values
// carry the marks the plan recorded; resourceChange adds the schema's.
func (r renderer) decode(src *plans.ResourceInstanceChangeSrc) (*plans.ResourceInstanceChange, schema.Schema, error) {
	resource := src.Addr.Resource.Resource
	provider := src.ProviderAddr.Config.Provider
	resSchema, ok := r.schemas.ResourceType(provider, resource.Mode == addrs.DataResourceMode, resource.Type)
	if !ok {
		return nil, resSchema, fmt.Errorf("%s: provider %s has no schema for %s resource type %q; run \"terrane init\" so that the provider the plan was made with is installed",
			src.ObjectName(), provider, jsonstate.ResourceMode(resource.Mode), resource.Type)
	}
	types := plans.ObjectTypes{Value: resSchema.Block.ImpliedType(), Identity: cty.NilType}
	if identity, ok := r.schemas.Identity(provider, resource.Type); ok {
		types.Identity = identity.ImpliedType()
	}
	change, err := src.Decode(types)
	if err != nil {
		return nil, resSchema, fmt.Errorf("%s: %w", src.ObjectName(), err)
	}
	return change, resSchema, nil
}

func markSchemaSensitive(val cty.Value, block *schema.Block) cty.Value {
	if val == cty.NilVal || val.IsNull() || !block.ContainsSensitive() {
		return val
	}
	unmarked, _ := val.UnmarkDeep()
	return jsonstate.MarkSensitivePaths(val, block.SensitivePaths(unmarked))
}

func (r renderer) resourceChange(src *plans.ResourceInstanceChangeSrc) (ResourceChange, *plans.ResourceInstanceChange, error) {
	change, resSchema, err := r.decode(src)
	if err != nil {
		return ResourceChange{}, nil, err
	}
	// The change's sensitive mirrors add what the schema declares
	// sensitive to what the plan recorded, as OpenTofu's do; the planned
	// values show the recorded marks alone.
	change.Before = markSchemaSensitive(change.Before, resSchema.Block)
	change.After = markSchemaSensitive(change.After, resSchema.Block)
	addr := src.Addr
	out := ResourceChange{
		Address:      addr.String(),
		Mode:         jsonstate.ResourceMode(addr.Resource.Resource.Mode),
		Type:         addr.Resource.Resource.Type,
		Name:         addr.Resource.Resource.Name,
		ProviderName: src.ProviderAddr.Config.Provider.String(),
		DeposedKey:   string(src.DeposedKey),
		ActionReason: src.ActionReason.String(),
	}
	if src.Moved() {
		out.PreviousAddress = src.PrevRunAddr.String()
	}
	if !addr.Module.IsRoot() {
		out.ModuleAddress = addr.Module.String()
	}
	if out.Index, err = jsonstate.InstanceIndex(addr.Resource.Key); err != nil {
		return out, nil, fmt.Errorf("%s: %w", addr, err)
	}
	if out.Change, err = newChange(change.Change, true); err != nil {
		return out, nil, fmt.Errorf("%s: %w", src.ObjectName(), err)
	}
	if out.Change.ReplacePaths, err = replacePaths(src.RequiredReplace); err != nil {
		return out, nil, fmt.Errorf("%s: %w", src.ObjectName(), err)
	}
	return out, change, nil
}

// newChange renders the values of a change. With valueMirrors the sensitive
// mirrors follow the values' marks; without, the caller sets them.
func newChange(change plans.Change, valueMirrors bool) (Change, error) {
	out := Change{Actions: Actions(change.Action), GeneratedConfig: change.GeneratedConfig}
	var err error
	if change.Before != cty.NilVal {
		if out.Before, err = marshalKnown(change.Before); err != nil {
			return out, fmt.Errorf("before value: %w", err)
		}
		if valueMirrors {
			out.BeforeSensitive, _ = jsonstate.MarshalSensitiveAsBool(change.Before)
		}
	}
	afterUnknown := any(map[string]any{})
	if change.After != cty.NilVal {
		if out.After, err = marshalKnown(change.After); err != nil {
			return out, fmt.Errorf("after value: %w", err)
		}
		if !change.After.IsWhollyKnown() {
			afterUnknown = UnknownAsBool(change.After)
		}
		if valueMirrors {
			out.AfterSensitive, _ = jsonstate.MarshalSensitiveAsBool(change.After)
		}
	}
	out.AfterUnknown, _ = json.Marshal(afterUnknown)
	if out.BeforeIdentity, err = marshalIdentity(change.BeforeIdentity); err != nil {
		return out, fmt.Errorf("before identity: %w", err)
	}
	if out.AfterIdentity, err = marshalIdentity(change.AfterIdentity); err != nil {
		return out, fmt.Errorf("after identity: %w", err)
	}
	if imp := change.Importing; imp != nil {
		out.Importing = &Importing{ID: imp.ID, Unknown: imp.Unknown}
		if out.Importing.Identity, err = marshalIdentity(imp.Identity); err != nil {
			return out, fmt.Errorf("import identity: %w", err)
		}
	}
	return out, nil
}

// marshalKnown renders the known parts of a value; a wholly unknown value
// renders as nothing (nil), so the property is left out.
func marshalKnown(val cty.Value) (json.RawMessage, error) {
	val, _ = val.UnmarkDeep()
	known := jsonstate.OmitUnknowns(val)
	if known == cty.NilVal {
		return nil, nil
	}
	return jsonstate.MarshalValue(known)
}

func marshalIdentity(val cty.Value) (json.RawMessage, error) {
	if val == cty.NilVal || val.IsNull() {
		return nil, nil
	}
	return marshalKnown(val)
}

// UnknownAsBool builds the "after_unknown" mirror of a value: true where it
// is unknown; objects and maps hold only the members that are or contain
// something unknown; sequences have an entry per element.
func UnknownAsBool(val cty.Value) any {
	val, _ = val.Unmark()
	ty := val.Type()
	switch {
	case val.IsNull():
		return false
	case !val.IsKnown():
		return true
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		elems := []any{}
		for it := val.ElementIterator(); it.Next(); {
			_, elem := it.Element()
			elems = append(elems, UnknownAsBool(elem))
		}
		return elems
	case ty.IsMapType() || ty.IsObjectType():
		members := map[string]any{}
		for it := val.ElementIterator(); it.Next(); {
			key, elem := it.Element()
			if mirror := UnknownAsBool(elem); mirror != false {
				members[key.AsString()] = mirror
			}
		}
		return members
	default:
		return false
	}
}

// replacePaths renders the attribute paths that forced a replacement, each
// as an array of steps: attribute names and index keys.
func replacePaths(paths []cty.Path) (json.RawMessage, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	rendered := make([]json.RawMessage, 0, len(paths))
	for _, path := range paths {
		raw, err := marshalPath(path)
		if err != nil {
			return nil, err
		}
		rendered = append(rendered, raw)
	}
	return json.Marshal(rendered)
}

func marshalPath(path cty.Path) (json.RawMessage, error) {
	steps := make([]json.RawMessage, 0, len(path))
	for _, step := range path {
		switch step := step.(type) {
		case cty.GetAttrStep:
			raw, _ := json.Marshal(step.Name)
			steps = append(steps, raw)
		case cty.IndexStep:
			raw, err := ctyjson.Marshal(step.Key, step.Key.Type())
			if err != nil {
				return nil, fmt.Errorf("path step %#v: %w", step.Key, err)
			}
			steps = append(steps, raw)
		}
	}
	return json.Marshal(steps)
}
