package planfile

import (
	"fmt"
	"time"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/proto/tfplan"
)

// tfplanFormatVersion is the tfplan version Terraform and OpenTofu write
// and accept; a reader must refuse any other.
const tfplanFormatVersion = 3

// planToProto converts the model to the tfplan message.
func planToProto(plan *plans.Plan) (*tfplan.Plan, error) {
	mode, ok := modesToProto[plan.UIMode]
	if !ok {
		return nil, fmt.Errorf("plan has invalid mode %s", plan.UIMode)
	}
	raw := &tfplan.Plan{
		Version:            tfplanFormatVersion,
		UiMode:             mode,
		Applyable:          plan.Applyable,
		Complete:           plan.Complete,
		Errored:            plan.Errored,
		Variables:          make(map[string]*tfplan.DynamicValue, len(plan.VariableValues)),
		ApplyTimeVariables: plan.ApplyTimeVariables,
		TargetAddrs:        plan.TargetAddrs,
		ExcludeAddrs:       plan.ExcludeAddrs,
		TerraformVersion:   plan.EngineVersion,
	}
	if !plan.Timestamp.IsZero() {
		raw.Timestamp = plan.Timestamp.UTC().Format(time.RFC3339Nano)
	}
	for name, encoded := range plan.VariableValues {
		raw.Variables[name] = dynamicToProto(encoded)
	}
	for _, addr := range plan.ForceReplaceAddrs {
		raw.ForceReplaceAddrs = append(raw.ForceReplaceAddrs, addr.String())
	}
	var err error
	if raw.ResourceChanges, err = resourceChangesToProto(plan.Changes.Resources); err != nil {
		return nil, err
	}
	if raw.ResourceDrift, err = resourceChangesToProto(plan.DriftedResources); err != nil {
		return nil, err
	}
	for _, deferred := range plan.Deferred {
		change, err := resourceChangeToProto(deferred.Change)
		if err != nil {
			return nil, err
		}
		raw.DeferredChanges = append(raw.DeferredChanges, &tfplan.DeferredResourceInstanceChange{
			Deferred: &tfplan.Deferred{Reason: tfplan.DeferredReason(deferred.Reason)},
			Change:   change,
		})
	}
	if raw.OutputChanges, err = outputChangesToProto(plan.Changes.Outputs); err != nil {
		return nil, err
	}
	if raw.RelevantAttributes, err = relevantAttributesToProto(plan.RelevantAttributes); err != nil {
		return nil, err
	}
	raw.CheckResults = checkResultsToProto(plan.Checks)
	for _, result := range plan.FunctionResults {
		raw.FunctionResults = append(raw.FunctionResults, &tfplan.FunctionCallHash{Key: result.Key, Result: result.Result})
	}
	return raw, nil
}

func resourceChangesToProto(changes []*plans.ResourceInstanceChangeSrc) ([]*tfplan.ResourceInstanceChange, error) {
	out := make([]*tfplan.ResourceInstanceChange, 0, len(changes))
	for _, change := range changes {
		raw, err := resourceChangeToProto(change)
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, nil
}

func resourceChangeToProto(change *plans.ResourceInstanceChangeSrc) (*tfplan.ResourceInstanceChange, error) {
	// A zero address would be written as garbage that no reader parses, and
	// a zero provider cannot even be printed: both are engine bugs, caught
	// here rather than on apply.
	if change.Addr.Resource.Resource.Type == "" {
		return nil, fmt.Errorf("plan has a %s change without a resource instance address", change.Action)
	}
	if change.ProviderAddr.Config.Provider.IsZero() {
		return nil, fmt.Errorf("change to %s has no provider configuration", change.ObjectName())
	}
	reason, ok := reasonsToProto[change.ActionReason]
	if !ok {
		return nil, fmt.Errorf("change to %s has invalid action reason %s", change.ObjectName(), change.ActionReason)
	}
	raw := &tfplan.ResourceInstanceChange{
		Addr:         change.Addr.String(),
		DeposedKey:   change.DeposedKey.String(),
		Provider:     change.ProviderAddr.String(),
		Private:      change.Private,
		ActionReason: reason,
	}
	if change.Moved() {
		raw.PrevRunAddr = change.PrevRunAddr.String()
	}
	var err error
	if raw.Change, err = changeToProto(&change.ChangeSrc); err != nil {
		return nil, fmt.Errorf("change to %s: %w", change.ObjectName(), err)
	}
	if raw.RequiredReplace, err = pathsToProto(change.RequiredReplace); err != nil {
		return nil, fmt.Errorf("change to %s: required replace: %w", change.ObjectName(), err)
	}
	return raw, nil
}

func outputChangesToProto(changes []*plans.OutputChangeSrc) ([]*tfplan.OutputChange, error) {
	out := make([]*tfplan.OutputChange, 0, len(changes))
	for _, change := range changes {
		if !change.Addr.Module.IsRoot() {
			return nil, fmt.Errorf("plan has a change to %s, but plans record root module outputs only", change.Addr)
		}
		raw, err := changeToProto(&change.ChangeSrc)
		if err != nil {
			return nil, fmt.Errorf("change to %s: %w", change.Addr, err)
		}
		out = append(out, &tfplan.OutputChange{Name: change.Addr.OutputValue.Name, Change: raw, Sensitive: change.Sensitive})
	}
	return out, nil
}

// changeToProto lays out the change's values as the format prescribes: one
// value for create (after), delete and forget (before) and no-op (both are
// the same), two for every other action (before, after).
func changeToProto(change *plans.ChangeSrc) (*tfplan.Change, error) {
	action, ok := actionsToProto[change.Action]
	if !ok {
		return nil, fmt.Errorf("invalid action %s", change.Action)
	}
	raw := &tfplan.Change{Action: action, GeneratedConfig: change.GeneratedConfig}
	if len(change.Before.Msgpack) == 0 && len(change.Before.JSON) > 0 || len(change.After.Msgpack) == 0 && len(change.After.JSON) > 0 {
		// The format holds msgpack only; a value kept as its state
		// record's JSON must be converted with its type first.
		return nil, fmt.Errorf("a value is held as JSON: convert it with plans.Changes.EncodeValuesAsMsgpack before writing the plan")
	}
	switch change.Action {
	case plans.Create:
		raw.Values = []*tfplan.DynamicValue{dynamicToProto(change.After)}
	case plans.Delete, plans.Forget, plans.NoOp:
		raw.Values = []*tfplan.DynamicValue{dynamicToProto(change.Before)}
	default:
		raw.Values = []*tfplan.DynamicValue{dynamicToProto(change.Before), dynamicToProto(change.After)}
	}
	var err error
	if raw.BeforeSensitivePaths, err = pathsToProto(change.BeforeSensitivePaths); err != nil {
		return nil, fmt.Errorf("before sensitive paths: %w", err)
	}
	if raw.AfterSensitivePaths, err = pathsToProto(change.AfterSensitivePaths); err != nil {
		return nil, fmt.Errorf("after sensitive paths: %w", err)
	}
	raw.BeforeIdentity = optionalDynamicToProto(change.BeforeIdentity)
	raw.AfterIdentity = optionalDynamicToProto(change.AfterIdentity)
	if imp := change.Importing; imp != nil {
		raw.Importing = &tfplan.Importing{Id: imp.ID, Unknown: imp.Unknown, Identity: optionalDynamicToProto(imp.Identity)}
	}
	return raw, nil
}

func relevantAttributesToProto(attrs []plans.ResourceAttr) ([]*tfplan.PlanResourceAttr, error) {
	out := make([]*tfplan.PlanResourceAttr, 0, len(attrs))
	for _, attr := range attrs {
		path, err := pathToProto(attr.Attr)
		if err != nil {
			return nil, fmt.Errorf("relevant attribute of %s: %w", attr.Resource, err)
		}
		out = append(out, &tfplan.PlanResourceAttr{Resource: attr.Resource.String(), Attr: path})
	}
	return out, nil
}

func checkResultsToProto(results []plans.CheckResult) []*tfplan.CheckResults {
	out := make([]*tfplan.CheckResults, 0, len(results))
	for _, result := range results {
		raw := &tfplan.CheckResults{
			Kind:       tfplan.CheckResults_ObjectKind(result.Kind),
			ConfigAddr: result.ConfigAddr,
			Status:     tfplan.CheckResults_Status(result.Status),
		}
		for _, object := range result.Objects {
			raw.Objects = append(raw.Objects, &tfplan.CheckResults_ObjectResult{
				ObjectAddr:      object.ObjectAddr,
				Status:          tfplan.CheckResults_Status(object.Status),
				FailureMessages: object.FailureMessages,
			})
		}
		out = append(out, raw)
	}
	return out
}

// msgpackNull is msgpack's nil, which decodes as null whatever the type.
var msgpackNull = []byte{0xc0}

// dynamicToProto converts a value that the format requires to be present,
// so a null value, empty in the model, is written as msgpack nil: readers
// of other tools do not accept an empty value there.
func dynamicToProto(d value.Dynamic) *tfplan.DynamicValue {
	if d.IsEmpty() {
		return &tfplan.DynamicValue{Msgpack: msgpackNull}
	}
	return &tfplan.DynamicValue{Msgpack: d.Msgpack}
}

func optionalDynamicToProto(d value.Dynamic) *tfplan.DynamicValue {
	if d.IsEmpty() {
		return nil
	}
	return dynamicToProto(d)
}
