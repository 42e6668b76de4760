package planfile

import (
	"bytes"
	"fmt"
	"time"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/proto/tfplan"
)

// planFromProto converts a tfplan message whose version has been checked
// into the model. Every error names the part of the plan that is wrong.
func planFromProto(raw *tfplan.Plan) (*plans.Plan, error) {
	mode, ok := modesFromProto[raw.GetUiMode()]
	if !ok {
		return nil, fmt.Errorf("the plan has unsupported mode %d", raw.GetUiMode())
	}
	plan := &plans.Plan{
		UIMode:             mode,
		Applyable:          raw.GetApplyable(),
		Complete:           raw.GetComplete(),
		Errored:            raw.GetErrored(),
		VariableValues:     make(map[string]value.Dynamic, len(raw.GetVariables())),
		ApplyTimeVariables: raw.GetApplyTimeVariables(),
		TargetAddrs:        raw.GetTargetAddrs(),
		ExcludeAddrs:       raw.GetExcludeAddrs(),
		EngineVersion:      raw.GetTerraformVersion(),
		Checks:             checkResultsFromProto(raw.GetCheckResults()),
	}
	if ts := raw.GetTimestamp(); ts != "" {
		parsed, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			return nil, fmt.Errorf("the plan's timestamp %q is not an RFC 3339 time", ts)
		}
		plan.Timestamp = parsed
	}
	for name, encoded := range raw.GetVariables() {
		plan.VariableValues[name] = value.Dynamic{Msgpack: encoded.GetMsgpack()}
	}
	for _, str := range raw.GetForceReplaceAddrs() {
		addr, err := parseInstanceAddr(str)
		if err != nil {
			return nil, fmt.Errorf("force-replace address: %w", err)
		}
		plan.ForceReplaceAddrs = append(plan.ForceReplaceAddrs, addr)
	}
	changes := &changeReader{providers: map[string]addrs.AbsProviderConfigInstance{}}
	var err error
	if plan.Changes.Resources, err = changes.resourceChangesFromProto(raw.GetResourceChanges()); err != nil {
		return nil, fmt.Errorf("resource changes: %w", err)
	}
	if plan.DriftedResources, err = changes.resourceChangesFromProto(raw.GetResourceDrift()); err != nil {
		return nil, fmt.Errorf("resource drift: %w", err)
	}
	if plan.Deferred, err = changes.deferredChangesFromProto(raw.GetDeferredChanges()); err != nil {
		return nil, fmt.Errorf("deferred changes: %w", err)
	}
	if plan.Changes.Outputs, err = outputChangesFromProto(raw.GetOutputChanges()); err != nil {
		return nil, fmt.Errorf("output changes: %w", err)
	}
	if plan.RelevantAttributes, err = relevantAttributesFromProto(raw.GetRelevantAttributes()); err != nil {
		return nil, fmt.Errorf("relevant attributes: %w", err)
	}
	for _, result := range raw.GetFunctionResults() {
		plan.FunctionResults = append(plan.FunctionResults, plans.FunctionResult{Key: result.GetKey(), Result: result.GetResult()})
	}
	return plan, nil
}

// changeReader converts resource instance changes. A plan names a handful
// of provider configurations thousands of times, so each is parsed once.
type changeReader struct {
	providers map[string]addrs.AbsProviderConfigInstance
}

func (r *changeReader) providerAddr(str string) (addrs.AbsProviderConfigInstance, error) {
	if addr, ok := r.providers[str]; ok {
		return addr, nil
	}
	addr, diags := addrs.ParseAbsProviderConfigInstanceStr(str)
	if diags.HasErrors() {
		return addrs.AbsProviderConfigInstance{}, fmt.Errorf("provider configuration %q: %s", str, diags.Error())
	}
	r.providers[str] = addr
	return addr, nil
}

func (r *changeReader) resourceChangesFromProto(raw []*tfplan.ResourceInstanceChange) ([]*plans.ResourceInstanceChangeSrc, error) {
	out := make([]*plans.ResourceInstanceChangeSrc, 0, len(raw))
	for _, rawChange := range raw {
		change, err := r.resourceChangeFromProto(rawChange)
		if err != nil {
			return nil, err
		}
		out = append(out, change)
	}
	return out, nil
}

func (r *changeReader) resourceChangeFromProto(raw *tfplan.ResourceInstanceChange) (*plans.ResourceInstanceChangeSrc, error) {
	change := &plans.ResourceInstanceChangeSrc{}
	var err error
	if change.Addr, err = parseInstanceAddr(raw.GetAddr()); err != nil {
		return nil, err
	}
	change.PrevRunAddr = change.Addr
	if prev := raw.GetPrevRunAddr(); prev != "" {
		if change.PrevRunAddr, err = parseInstanceAddr(prev); err != nil {
			return nil, fmt.Errorf("previous address of %s: %w", change.Addr, err)
		}
	}
	if key := raw.GetDeposedKey(); key != "" {
		if change.DeposedKey, err = addrs.ParseDeposedKey(key); err != nil {
			return nil, fmt.Errorf("change to %s: %w", change.Addr, err)
		}
	}
	if change.ProviderAddr, err = r.providerAddr(raw.GetProvider()); err != nil {
		return nil, fmt.Errorf("change to %s: %w", change.ObjectName(), err)
	}
	reason, ok := reasonsFromProto[raw.GetActionReason()]
	if !ok {
		return nil, fmt.Errorf("change to %s has unsupported action reason %d", change.ObjectName(), raw.GetActionReason())
	}
	change.ActionReason = reason
	change.Private = raw.GetPrivate()
	if change.RequiredReplace, err = pathsFromProto(raw.GetRequiredReplace()); err != nil {
		return nil, fmt.Errorf("change to %s: required replace: %w", change.ObjectName(), err)
	}
	src, err := changeFromProto(raw.GetChange())
	if err != nil {
		return nil, fmt.Errorf("change to %s: %w", change.ObjectName(), err)
	}
	change.ChangeSrc = *src
	return change, nil
}

func (r *changeReader) deferredChangesFromProto(raw []*tfplan.DeferredResourceInstanceChange) ([]*plans.DeferredResourceInstanceChangeSrc, error) {
	out := make([]*plans.DeferredResourceInstanceChangeSrc, 0, len(raw))
	for _, deferred := range raw {
		reason := plans.DeferredReason(deferred.GetDeferred().GetReason())
		if reason <= plans.DeferredReasonInvalid || reason > plans.DeferredReasonNotIncluded {
			return nil, fmt.Errorf("change to %q was deferred for unsupported reason %d", deferred.GetChange().GetAddr(), reason)
		}
		change, err := r.resourceChangeFromProto(deferred.GetChange())
		if err != nil {
			return nil, err
		}
		out = append(out, &plans.DeferredResourceInstanceChangeSrc{Reason: reason, Change: change})
	}
	return out, nil
}

func outputChangesFromProto(raw []*tfplan.OutputChange) ([]*plans.OutputChangeSrc, error) {
	out := make([]*plans.OutputChangeSrc, 0, len(raw))
	for _, rawChange := range raw {
		addr := addrs.OutputValue{Name: rawChange.GetName()}.Absolute(addrs.RootModuleInstance)
		src, err := changeFromProto(rawChange.GetChange())
		if err != nil {
			return nil, fmt.Errorf("change to %s: %w", addr, err)
		}
		out = append(out, &plans.OutputChangeSrc{Addr: addr, ChangeSrc: *src, Sensitive: rawChange.GetSensitive()})
	}
	return out, nil
}

// changeFromProto is the inverse of changeToProto; a change whose number of
// values does not fit its action is refused rather than guessed at.
func changeFromProto(raw *tfplan.Change) (*plans.ChangeSrc, error) {
	if raw == nil {
		return nil, fmt.Errorf("the change is missing")
	}
	action, ok := actionsFromProto[raw.GetAction()]
	if !ok {
		return nil, fmt.Errorf("unsupported action %d", raw.GetAction())
	}
	change := &plans.ChangeSrc{Action: action, GeneratedConfig: raw.GetGeneratedConfig()}
	values := raw.GetValues()
	want := 2
	switch action {
	case plans.Create, plans.Delete, plans.Forget, plans.NoOp:
		want = 1
	}
	if len(values) != want {
		return nil, fmt.Errorf("a %s change must have %d values, but this one has %d", action, want, len(values))
	}
	switch action {
	case plans.Create:
		change.After = dynamicFromProto(values[0])
	case plans.Delete, plans.Forget:
		change.Before = dynamicFromProto(values[0])
	case plans.NoOp:
		change.Before = dynamicFromProto(values[0])
		change.After = change.Before
	default:
		change.Before, change.After = dynamicFromProto(values[0]), dynamicFromProto(values[1])
	}
	var err error
	if change.BeforeSensitivePaths, err = pathsFromProto(raw.GetBeforeSensitivePaths()); err != nil {
		return nil, fmt.Errorf("before sensitive paths: %w", err)
	}
	if change.AfterSensitivePaths, err = pathsFromProto(raw.GetAfterSensitivePaths()); err != nil {
		return nil, fmt.Errorf("after sensitive paths: %w", err)
	}
	change.BeforeIdentity = dynamicFromProto(raw.GetBeforeIdentity())
	change.AfterIdentity = dynamicFromProto(raw.GetAfterIdentity())
	if imp := raw.GetImporting(); imp != nil {
		change.Importing = &plans.ImportingSrc{ID: imp.GetId(), Unknown: imp.GetUnknown(), Identity: dynamicFromProto(imp.GetIdentity())}
	}
	return change, nil
}

func relevantAttributesFromProto(raw []*tfplan.PlanResourceAttr) ([]plans.ResourceAttr, error) {
	out := make([]plans.ResourceAttr, 0, len(raw))
	for _, attr := range raw {
		addr, err := parseInstanceAddr(attr.GetResource())
		if err != nil {
			return nil, err
		}
		path, err := pathFromProto(attr.GetAttr())
		if err != nil {
			return nil, fmt.Errorf("attribute of %s: %w", addr, err)
		}
		out = append(out, plans.ResourceAttr{Resource: addr, Attr: path})
	}
	return out, nil
}

func checkResultsFromProto(raw []*tfplan.CheckResults) []plans.CheckResult {
	out := make([]plans.CheckResult, 0, len(raw))
	for _, result := range raw {
		check := plans.CheckResult{
			Kind:       plans.CheckableKind(result.GetKind()),
			ConfigAddr: result.GetConfigAddr(),
			Status:     plans.CheckStatus(result.GetStatus()),
		}
		for _, object := range result.GetObjects() {
			check.Objects = append(check.Objects, plans.CheckObjectResult{
				ObjectAddr:      object.GetObjectAddr(),
				Status:          plans.CheckStatus(object.GetStatus()),
				FailureMessages: object.GetFailureMessages(),
			})
		}
		out = append(out, check)
	}
	return out
}

func parseInstanceAddr(str string) (addrs.AbsResourceInstance, error) {
	addr, diags := addrs.ParseAbsResourceInstanceStr(str)
	if diags.HasErrors() {
		return addrs.AbsResourceInstance{}, fmt.Errorf("invalid resource instance address %q: %s", str, diags.Error())
	}
	return addr, nil
}

// dynamicFromProto is the inverse of dynamicToProto: msgpack nil becomes
// the model's empty (null) value.
func dynamicFromProto(raw *tfplan.DynamicValue) value.Dynamic {
	if bytes.Equal(raw.GetMsgpack(), msgpackNull) {
		return value.Dynamic{}
	}
	return value.Dynamic{Msgpack: raw.GetMsgpack()}
}
