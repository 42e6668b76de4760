package pulumi

import (
	"context"
	"encoding/json"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// ApplyResourceChange creates, updates or deletes the object. Check runs
// again because the configuration is known now where the plan had
// unknowns; the kept seed makes its choices the same as in the plan.
func (p *Provider) ApplyResourceChange(ctx context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	rt, problems := p.resourceType(ctx, req.TypeName)
	if problems.HasErrors() {
		return providers.ApplyResourceChangeResponse{Diagnostics: problems}
	}
	if rt.Component {
		return p.applyComponent(ctx, rt, req)
	}
	priv, err := decodePrivate(req.PlannedPrivate, rt.Token)
	if err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	if req.PlannedState.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState, Diagnostics: p.delete(ctx, rt, priv, req.PriorState)}
	}
	if priv.NoChange && !req.PriorState.IsNull() {
		// Pulumi's "same" step: the new inputs are recorded, the object and
		// its outputs stay as they were.
		priv.NoChange, priv.PriorInputs = false, nil
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState, Private: priv.encode(), SensitivePaths: priv.Secrets}
	}
	prior := priv
	prior.Inputs = priv.PriorInputs
	oldInputs, err := prior.inputs()
	if err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	inputs, problems := p.check(ctx, rt, priv, req.Config, req.ConfigSensitivePaths, oldInputs)
	if problems.HasErrors() {
		return providers.ApplyResourceChangeResponse{Diagnostics: problems}
	}
	next := priv.withInputs(inputs)
	next.PriorInputs = nil
	var id string
	var props *structpb.Struct
	if req.PriorState.IsNull() {
		var resp *pulumirpc.CreateResponse
		resp, err = p.client.Create(ctx, &pulumirpc.CreateRequest{Urn: priv.URN, Properties: inputs, Timeout: timeout(ctx), Name: priv.name(), Type: rt.Token})
		id, props = resp.GetId(), resp.GetProperties()
	} else {
		id = req.PriorState.GetAttr("id").AsString()
		olds, wireErr := p.oldOutputs(rt, prior, req.PriorState)
		if wireErr != nil {
			return providers.ApplyResourceChangeResponse{Diagnostics: p.valueProblem("Update", "prior "+req.TypeName, wireErr)}
		}
		var resp *pulumirpc.UpdateResponse
		resp, err = p.client.Update(ctx, &pulumirpc.UpdateRequest{Id: id, Urn: priv.URN, Olds: olds, News: inputs, OldInputs: oldInputs, Timeout: timeout(ctx), Name: priv.name(), Type: rt.Token,
			IgnoreChanges: p.pkg.propertyPaths(req.IgnoreChanges)})
		props = resp.GetProperties()
	}
	if err != nil {
		return p.applyFailure(ctx, rt, next, req.PriorState, err)
	}
	state, secrets, problems := p.objectStateSecrets(rt, id, props, inputs)
	next.Secrets = secrets
	next = next.withOutputs(props)
	if !problems.HasErrors() {
		state = alignTo(state, req.PlannedState)
	}
	// Pulumi's engine never holds a result to its preview: a preview is the
	// provider's best guess (a bridged SDKv2 provider's leaves out the zero
	// values its create fills in). A result that differs from the plan is
	// tolerated and logged, as Terraform tolerates legacy SDK providers.
	return providers.ApplyResourceChangeResponse{NewState: state, Private: next.encode(), SensitivePaths: secrets, Diagnostics: problems, LegacyTypeSystem: true}
}

// oldOutputs are a stored object's outputs as Pulumi's engine sends them
// to Read, Diff, Update and Delete: verbatim, as the provider last returned
// them (privateData.Outputs). An object recorded without them is sent as
// its attributes, with the values the provider returned as secrets sent as
// secrets.
func (p *Provider) oldOutputs(rt *ResourceType, priv privateData, prior cty.Value) (*structpb.Struct, error) {
	kept, err := priv.outputs()
	if err != nil || kept != nil {
		return kept, err
	}
	return p.pkg.toWire(prior, rt.objectSecrets(priv), p.wireOptions())
}

// applyFailure reports a failed create or update. ErrorResourceInitFailed
// means the object exists but did not finish: its state is returned with
// the error, so the engine records it (tainted) rather than losing it.
func (p *Provider) applyFailure(ctx context.Context, rt *ResourceType, priv privateData, prior cty.Value, err error) providers.ApplyResourceChangeResponse {
	rpc := "Create"
	if !prior.IsNull() {
		rpc = "Update"
	}
	for _, detail := range status.Convert(err).Details() {
		initFailed, ok := detail.(*pulumirpc.ErrorResourceInitFailed)
		if !ok {
			continue
		}
		if initFailed.GetInputs() != nil {
			priv = priv.withInputs(initFailed.GetInputs())
		}
		inputs, _ := priv.inputs()
		state, secrets, problems := p.objectStateSecrets(rt, initFailed.GetId(), initFailed.GetProperties(), inputs)
		priv.Secrets = secrets
		priv = priv.withOutputs(initFailed.GetProperties())
		reasons, _ := json.Marshal(initFailed.GetReasons())
		problems = append(problems, diags.Errorf("Object created but not ready",
			"The Pulumi provider %s created the %s object %q but it failed to finish initialising: %s. Terrane recorded it; the next apply updates or replaces it.",
			p.name, TypeName(rt.Token), initFailed.GetId(), reasons))
		return providers.ApplyResourceChangeResponse{NewState: state, Private: priv.encode(), SensitivePaths: secrets, Diagnostics: problems}
	}
	return providers.ApplyResourceChangeResponse{NewState: prior, Diagnostics: diags.Diagnostics{p.callFailure(ctx, rpc, TypeName(rt.Token), err)}}
}

func (p *Provider) delete(ctx context.Context, rt *ResourceType, priv privateData, prior cty.Value) diags.Diagnostics {
	if prior.IsNull() {
		return nil
	}
	props, err := p.oldOutputs(rt, priv, prior)
	if err != nil {
		return p.valueProblem("Delete", TypeName(rt.Token), err)
	}
	oldInputs, err := priv.inputs()
	if err != nil {
		return p.privateProblem(TypeName(rt.Token), err)
	}
	_, err = p.client.Delete(ctx, &pulumirpc.DeleteRequest{Id: prior.GetAttr("id").AsString(), Urn: priv.URN, Properties: props, OldInputs: oldInputs, Timeout: timeout(ctx), Name: priv.name(), Type: rt.Token})
	if err != nil {
		return diags.Diagnostics{p.callFailure(ctx, "Delete", TypeName(rt.Token), err)}
	}
	return nil
}

// objectStateSecrets converts an object's properties, sets its id and
// returns the paths of the secrets among the properties, which must stay
// sensitive. An input the outputs leave out takes its
// value from the object's inputs: Pulumi keeps an object's inputs beside
// its outputs, and an input a provider does not echo as an output (or an
// object imported without its inputs and given them by a later plan) is
// still the object's.
func (p *Provider) objectStateSecrets(rt *ResourceType, id string, props, inputs *structpb.Struct) (cty.Value, []cty.Path, diags.Diagnostics) {
	if len(inputs.GetFields()) > 0 {
		merged := &structpb.Struct{Fields: make(map[string]*structpb.Value, len(props.GetFields())+len(inputs.GetFields()))}
		for key, value := range props.GetFields() {
			merged.Fields[key] = value
		}
		for name := range rt.Inputs {
			key := p.pkg.PulumiName(name)
			if _, given := merged.Fields[key]; !given && inputs.GetFields()[key] != nil {
				merged.Fields[key] = inputs.GetFields()[key]
			}
		}
		props = merged
	}
	v, secrets, err := p.pkg.fromWire(props, rt.Schema.Block.ImpliedType())
	if err != nil {
		return cty.NilVal, nil, p.answerProblem(TypeName(rt.Token), err)
	}
	attrs := v.AsValueMap()
	attrs["id"] = cty.StringVal(id)
	return cty.ObjectVal(attrs), secrets, nil
}

// timeout is the seconds left before ctx's deadline (0: none).
func timeout(ctx context.Context) float64 {
	if deadline, ok := ctx.Deadline(); ok {
		return time.Until(deadline).Seconds()
	}
	return 0
}

// ReadResource refreshes an object with Read; an empty ID means it is gone.
func (p *Provider) ReadResource(ctx context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	if req.PriorState.IsNull() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
	}
	rt, problems := p.resourceType(ctx, req.TypeName)
	if problems.HasErrors() {
		return providers.ReadResourceResponse{Diagnostics: problems}
	}
	if rt.Component {
		return p.readComponent(ctx, rt, req)
	}
	priv, err := decodePrivate(req.Private, rt.Token)
	if err != nil {
		return providers.ReadResourceResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	inputs, err := priv.inputs()
	if err != nil {
		return providers.ReadResourceResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	props, err := p.oldOutputs(rt, priv, req.PriorState)
	if err != nil {
		return providers.ReadResourceResponse{Diagnostics: p.valueProblem("Read", req.TypeName, err)}
	}
	resp, err := p.client.Read(ctx, &pulumirpc.ReadRequest{Id: req.PriorState.GetAttr("id").AsString(), Urn: priv.URN, Properties: props, Inputs: inputs, Name: priv.name(), Type: rt.Token})
	if err != nil {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private, Diagnostics: diags.Diagnostics{p.callFailure(ctx, "Read", req.TypeName, err)}}
	}
	if resp.GetId() == "" {
		return providers.ReadResourceResponse{NewState: cty.NullVal(rt.Schema.Block.ImpliedType())}
	}
	if resp.GetInputs() != nil {
		priv = priv.withInputs(resp.GetInputs())
	}
	inputs, _ = priv.inputs()
	state, secrets, problems := p.objectStateSecrets(rt, resp.GetId(), resp.GetProperties(), inputs)
	priv.Secrets = secrets
	priv = priv.withOutputs(resp.GetProperties())
	if !problems.HasErrors() {
		state = alignTo(state, req.PriorState)
	}
	return providers.ReadResourceResponse{NewState: state, Private: priv.encode(), SensitivePaths: secrets, Diagnostics: problems}
}

// RecordsPlannedImport says that an object `terrane import` brings in is
// recorded as planned: with the inputs Check made of the configuration, as
// every later Diff needs them (see providers.PlannedImportRecorder).
func (p *Provider) RecordsPlannedImport() bool { return true }

// ImportResourceState answers with the ID alone; the ReadResource that
// follows fetches the object and its inputs.
func (p *Provider) ImportResourceState(ctx context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	rt, problems := p.resourceType(ctx, req.TypeName)
	if problems.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: problems}
	}
	if rt.Component {
		return providers.ImportResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Components cannot be imported",
			"%s is a component of the Pulumi provider %s: it has no object of its own to import. Import its children's objects as resources instead, or let the component create them.", req.TypeName, p.name)}}
	}
	priv, err := decodePrivate(nil, rt.Token)
	if err != nil {
		return providers.ImportResourceStateResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	ty := rt.Schema.Block.ImpliedType()
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, attrType := range ty.AttributeTypes() {
		attrs[name] = cty.NullVal(attrType)
	}
	attrs["id"] = cty.StringVal(req.ID)
	return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{
		TypeName: req.TypeName, State: cty.ObjectVal(attrs), Private: priv.encode(),
	}}}
}

// ReadDataSource calls Invoke; outputs fill the computed attributes.
func (p *Provider) ReadDataSource(ctx context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	pkg, problems := p.schema(ctx)
	if problems.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: problems}
	}
	fn, ok := pkg.DataSources[req.TypeName]
	if !ok {
		return providers.ReadDataSourceResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Unknown data source", "The Pulumi provider %s has no data source %s.", p.name, req.TypeName)}}
	}
	if p.streams[req.TypeName] != nil {
		return p.readStream(ctx, pkg, fn, req)
	}
	ty := fn.Schema.Block.ImpliedType()
	if !req.Config.IsWhollyKnown() {
		return providers.ReadDataSourceResponse{State: cty.UnknownVal(ty)}
	}
	args, err := pkg.argsToWire(req.Config, req.ConfigSensitivePaths, p.wireOptions())
	if err != nil {
		return providers.ReadDataSourceResponse{Diagnostics: p.valueProblem("Invoke", req.TypeName, err)}
	}
	resp, err := p.client.Invoke(ctx, &pulumirpc.InvokeRequest{Tok: fn.Token, Args: args})
	if err != nil {
		return providers.ReadDataSourceResponse{Diagnostics: diags.Diagnostics{p.callFailure(ctx, "Invoke", req.TypeName, err)}}
	}
	if problems := p.checkFailures(resp.GetFailures(), "data source "+req.TypeName); problems.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: problems}
	}
	result, secrets, err := pkg.fromWire(resp.GetReturn(), ty)
	if err != nil {
		return providers.ReadDataSourceResponse{Diagnostics: p.answerProblem(req.TypeName, err)}
	}
	attrs := result.AsValueMap()
	for name, configured := range req.Config.AsValueMap() {
		if attrs[name].IsNull() {
			attrs[name] = configured
		}
	}
	return providers.ReadDataSourceResponse{State: cty.ObjectVal(attrs), SensitivePaths: secrets}
}
