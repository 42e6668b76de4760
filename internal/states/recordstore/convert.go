package recordstore

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// InstanceToRecord converts the instance at addr, managed by provider, to
// its record message.
func InstanceToRecord(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, inst *states.ResourceInstance) (*recordsv1.ResourceInstance, error) {
	rec := &recordsv1.ResourceInstance{
		Type:     addr.Resource.Resource.Type,
		Name:     addr.Resource.Resource.Name,
		Provider: provider.Instance(inst.ProviderKey).String(),
		Mode:     recordsv1.ResourceMode_RESOURCE_MODE_MANAGED,
	}
	if !addr.Module.IsRoot() {
		rec.Module = addr.Module.String()
	}
	if addr.Resource.Resource.Mode == addrs.DataResourceMode {
		rec.Mode = recordsv1.ResourceMode_RESOURCE_MODE_DATA
	}
	switch key := addr.Resource.Key.(type) {
	case addrs.IntKey:
		rec.Each = recordsv1.EachMode_EACH_MODE_LIST
		rec.Key = &recordsv1.InstanceKey{Key: &recordsv1.InstanceKey_Int{Int: int64(key)}}
	case addrs.StringKey:
		rec.Each = recordsv1.EachMode_EACH_MODE_MAP
		rec.Key = &recordsv1.InstanceKey{Key: &recordsv1.InstanceKey_String_{String_: string(key)}}
	}
	var err error
	if rec.Current, err = objectToRecord(inst.Current); err != nil {
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	for key, obj := range inst.Deposed {
		if rec.Deposed == nil {
			rec.Deposed = map[string]*recordsv1.ObjectState{}
		}
		if rec.Deposed[string(key)], err = objectToRecord(obj); err != nil {
			return nil, fmt.Errorf("%s deposed object %s: %w", addr, key, err)
		}
	}
	if rec.Intent, err = intentToRecord(inst.Intent); err != nil {
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return rec, nil
}

// InstanceFromRecord converts a record message back to the instance, its
// address and its provider configuration.
func InstanceFromRecord(rec *recordsv1.ResourceInstance) (addrs.AbsResourceInstance, addrs.AbsProviderConfig, *states.ResourceInstance, error) {
	addr, err := recordAddr(rec)
	if err != nil {
		return addr, addrs.AbsProviderConfig{}, nil, err
	}
	// The record names the provider configuration instance that manages
	// the resource instance.
	providerInst, diags := addrs.ParseAbsProviderConfigInstanceStr(rec.GetProvider())
	provider := providerInst.Config
	if diags.HasErrors() {
		return addr, provider, nil, fmt.Errorf("%s: invalid provider configuration address %q: %s", addr, rec.GetProvider(), diags.Error())
	}
	inst := &states.ResourceInstance{ProviderKey: providerInst.Key}
	if inst.Current, err = objectFromRecord(rec.GetCurrent()); err != nil {
		return addr, provider, nil, fmt.Errorf("%s: %w", addr, err)
	}
	for key, obj := range rec.GetDeposed() {
		deposedKey, err := addrs.ParseDeposedKey(key)
		if err != nil {
			return addr, provider, nil, fmt.Errorf("%s: %w", addr, err)
		}
		if inst.Deposed == nil {
			inst.Deposed = map[addrs.DeposedKey]*states.ResourceInstanceObjectSrc{}
		}
		if inst.Deposed[deposedKey], err = objectFromRecord(obj); err != nil {
			return addr, provider, nil, fmt.Errorf("%s deposed object %s: %w", addr, key, err)
		}
	}
	if inst.Intent, err = intentFromRecord(rec.GetIntent()); err != nil {
		return addr, provider, nil, fmt.Errorf("%s: %w", addr, err)
	}
	return addr, provider, inst, nil
}

func recordAddr(rec *recordsv1.ResourceInstance) (addrs.AbsResourceInstance, error) {
	var addr addrs.AbsResourceInstance
	if rec.GetModule() != "" {
		module, diags := addrs.ParseModuleInstanceStr(rec.GetModule())
		if diags.HasErrors() {
			return addr, fmt.Errorf("record %s.%s: invalid module address %q: %s", rec.GetType(), rec.GetName(), rec.GetModule(), diags.Error())
		}
		addr.Module = module
	}
	addr.Resource.Resource = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: rec.GetType(), Name: rec.GetName()}
	if rec.GetMode() == recordsv1.ResourceMode_RESOURCE_MODE_DATA {
		addr.Resource.Resource.Mode = addrs.DataResourceMode
	}
	switch key := rec.GetKey().GetKey().(type) {
	case *recordsv1.InstanceKey_Int:
		addr.Resource.Key = addrs.IntKey(key.Int)
	case *recordsv1.InstanceKey_String_:
		addr.Resource.Key = addrs.StringKey(key.String_)
	}
	return addr, nil
}

func objectToRecord(obj *states.ResourceInstanceObjectSrc) (*recordsv1.ObjectState, error) {
	if obj == nil {
		return nil, nil
	}
	rec := &recordsv1.ObjectState{
		SchemaVersion:         int64(obj.SchemaVersion),
		AttributesJson:        obj.AttrsJSON,
		AttributesMsgpack:     obj.AttrsMsgpack,
		AttributesFlat:        obj.AttrsFlat,
		Private:               obj.Private,
		IdentityJson:          obj.IdentityJSON,
		IdentitySchemaVersion: int64(obj.IdentitySchemaVersion),
		CreateBeforeDestroy:   obj.CreateBeforeDestroy,
		SkipDestroy:           obj.SkipDestroy,
		Pulumi:                pulumiToRecord(obj.Pulumi),
	}
	if obj.Status == states.ObjectTainted {
		rec.Status = recordsv1.ObjectStatus_OBJECT_STATUS_TAINTED
	}
	for _, dep := range obj.Dependencies {
		rec.Dependencies = append(rec.Dependencies, dep.String())
	}
	for _, path := range obj.SensitivePaths {
		recPath, err := pathToRecord(path)
		if err != nil {
			return nil, err
		}
		rec.SensitivePaths = append(rec.SensitivePaths, recPath)
	}
	return rec, nil
}

func objectFromRecord(rec *recordsv1.ObjectState) (*states.ResourceInstanceObjectSrc, error) {
	if rec == nil {
		return nil, nil
	}
	obj := &states.ResourceInstanceObjectSrc{
		SchemaVersion:         uint64(rec.GetSchemaVersion()),
		AttrsJSON:             rec.GetAttributesJson(),
		AttrsMsgpack:          rec.GetAttributesMsgpack(),
		AttrsFlat:             rec.GetAttributesFlat(),
		Private:               rec.GetPrivate(),
		IdentityJSON:          rec.GetIdentityJson(),
		IdentitySchemaVersion: uint64(rec.GetIdentitySchemaVersion()),
		CreateBeforeDestroy:   rec.GetCreateBeforeDestroy(),
		SkipDestroy:           rec.GetSkipDestroy(),
		Status:                states.ObjectReady,
		Pulumi:                pulumiFromRecord(rec.GetPulumi()),
	}
	if rec.GetStatus() == recordsv1.ObjectStatus_OBJECT_STATUS_TAINTED {
		obj.Status = states.ObjectTainted
	}
	for _, dep := range rec.GetDependencies() {
		depAddr, diags := addrs.ParseAbsResourceStr(dep)
		if diags.HasErrors() {
			return nil, fmt.Errorf("invalid dependency %q: %s", dep, diags.Error())
		}
		obj.Dependencies = append(obj.Dependencies, depAddr.Config())
	}
	for _, recPath := range rec.GetSensitivePaths() {
		obj.SensitivePaths = append(obj.SensitivePaths, pathFromRecord(recPath))
	}
	return obj, nil
}

// pathToRecord converts a sensitive attribute path. Index keys in state are
// strings (maps) or whole numbers (lists and tuples); nothing else can
// address an element.
func pathToRecord(path cty.Path) (*recordsv1.AttributePath, error) {
	rec := &recordsv1.AttributePath{}
	for _, step := range path {
		var recStep recordsv1.AttributePath_Step
		switch step := step.(type) {
		case cty.GetAttrStep:
			recStep.Selector = &recordsv1.AttributePath_Step_AttributeName{AttributeName: step.Name}
		case cty.IndexStep:
			switch {
			case step.Key.Type() == cty.String && step.Key.IsKnown() && !step.Key.IsNull():
				recStep.Selector = &recordsv1.AttributePath_Step_ElementKeyString{ElementKeyString: step.Key.AsString()}
			case step.Key.Type() == cty.Number && step.Key.IsKnown() && !step.Key.IsNull():
				index, accuracy := step.Key.AsBigFloat().Int64()
				if accuracy != 0 {
					return nil, fmt.Errorf("sensitive path index %s is not a whole number", step.Key.AsBigFloat())
				}
				recStep.Selector = &recordsv1.AttributePath_Step_ElementKeyInt{ElementKeyInt: index}
			default:
				return nil, fmt.Errorf("sensitive path index of type %s cannot be stored", step.Key.Type().FriendlyName())
			}
		default:
			return nil, fmt.Errorf("unsupported path step %T", step)
		}
		rec.Steps = append(rec.Steps, &recStep)
	}
	return rec, nil
}

func pathFromRecord(rec *recordsv1.AttributePath) cty.Path {
	path := make(cty.Path, 0, len(rec.GetSteps()))
	for _, step := range rec.GetSteps() {
		switch selector := step.GetSelector().(type) {
		case *recordsv1.AttributePath_Step_AttributeName:
			path = append(path, cty.GetAttrStep{Name: selector.AttributeName})
		case *recordsv1.AttributePath_Step_ElementKeyString:
			path = append(path, cty.IndexStep{Key: cty.StringVal(selector.ElementKeyString)})
		case *recordsv1.AttributePath_Step_ElementKeyInt:
			path = append(path, cty.IndexStep{Key: cty.NumberIntVal(selector.ElementKeyInt)})
		}
	}
	return path
}

func intentToRecord(intent *states.Intent) (*recordsv1.Intent, error) {
	if intent == nil {
		return nil, nil
	}
	rec := &recordsv1.Intent{
		Operation:      recordsv1.Operation(intent.Operation),
		PlannedMsgpack: intent.PlannedMsgpack,
		RunId:          intent.RunID,
		DeposedKey:     string(intent.DeposedKey),
		Holder:         intent.Holder,
	}
	if !intent.StartedAt.IsZero() {
		rec.StartedAt = timestamppb.New(intent.StartedAt)
	}
	if intent.PlannedType != cty.NilType {
		ty, err := ctyjson.MarshalType(intent.PlannedType)
		if err != nil {
			return nil, fmt.Errorf("encoding the intent's planned type: %w", err)
		}
		rec.PlannedTypeJson = ty
	}
	return rec, nil
}

func intentFromRecord(rec *recordsv1.Intent) (*states.Intent, error) {
	if rec == nil {
		return nil, nil
	}
	intent := &states.Intent{
		Operation:      states.IntentOperation(rec.GetOperation()),
		PlannedMsgpack: rec.GetPlannedMsgpack(),
		RunID:          rec.GetRunId(),
		DeposedKey:     addrs.DeposedKey(rec.GetDeposedKey()),
		Holder:         rec.GetHolder(),
	}
	if rec.GetStartedAt() != nil {
		intent.StartedAt = rec.GetStartedAt().AsTime()
	}
	if len(rec.GetPlannedTypeJson()) > 0 {
		ty, err := ctyjson.UnmarshalType(rec.GetPlannedTypeJson())
		if err != nil {
			return nil, fmt.Errorf("the intent's planned type is invalid: %w", err)
		}
		intent.PlannedType = ty
	}
	return intent, nil
}

func pulumiToRecord(obj *states.PulumiObject) *recordsv1.PulumiObject {
	if obj == nil {
		return nil
	}
	return &recordsv1.PulumiObject{Urn: obj.URN, OldInputs: obj.OldInputs, RandomSeed: obj.RandomSeed, Id: obj.ID}
}

func pulumiFromRecord(rec *recordsv1.PulumiObject) *states.PulumiObject {
	if rec == nil {
		return nil
	}
	return &states.PulumiObject{URN: rec.GetUrn(), OldInputs: rec.GetOldInputs(), RandomSeed: rec.GetRandomSeed(), ID: rec.GetId()}
}

// OutputToRecord converts a root output to its record message.
func OutputToRecord(output *states.OutputValue) (*recordsv1.Output, error) {
	if paths := marks.StoredEphemeral(output.Value); len(paths) > 0 {
		return nil, fmt.Errorf("the value at %s is ephemeral and is never stored", value.FormatPath(paths[0]))
	}
	val, _ := output.Value.UnmarkDeep()
	if !val.IsWhollyKnown() {
		return nil, fmt.Errorf("the value is not known yet and cannot be stored")
	}
	valueJSON, err := ctyjson.Marshal(val, val.Type())
	if err != nil {
		return nil, err
	}
	typeJSON, err := ctyjson.MarshalType(val.Type())
	if err != nil {
		return nil, err
	}
	return &recordsv1.Output{ValueJson: valueJSON, TypeJson: typeJSON, Sensitive: output.Sensitive}, nil
}

// OutputFromRecord converts an output record message back.
func OutputFromRecord(rec *recordsv1.Output) (*states.OutputValue, error) {
	ty, err := ctyjson.UnmarshalType(rec.GetTypeJson())
	if err != nil {
		return nil, fmt.Errorf("invalid type: %w", err)
	}
	val, err := ctyjson.Unmarshal(rec.GetValueJson(), ty)
	if err != nil {
		return nil, fmt.Errorf("the value does not match its type: %w", err)
	}
	return &states.OutputValue{Value: val, Sensitive: rec.GetSensitive()}, nil
}
