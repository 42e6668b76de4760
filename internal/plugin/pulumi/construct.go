package pulumi

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// constructParallelism is how many resource operations a component's
// provider may run at once, as Pulumi's engine tells it.
const constructParallelism = 8

// construct runs Construct with a resource monitor of its own and returns
// what the registrations did and the component's outputs.
//
// The prior children are read first, as the component's refresh reads
// them: the engine re-plans an update from the stored record, not the
// refreshed one, so without this a child deleted behind Terrane's back
// would be planned for creation and then, at apply, taken as existing.
func (p *Provider) construct(ctx context.Context, rt *ResourceType, self componentPrivate, config cty.Value, dryRun bool) (*componentRun, *structpb.Struct, diags.Diagnostics) {
	existing, problems := p.readChildren(ctx, self.Children)
	if problems.HasErrors() {
		return newComponentRun(p, rt, self, dryRun), nil, problems
	}
	self.Children = existing
	run := newComponentRun(p, rt, self, dryRun)
	inputs, err := p.componentInputs(rt, config)
	if err != nil {
		return run, nil, p.valueProblem("Construct", TypeName(rt.Token)+" configuration", err)
	}
	address, stop, err := serveMonitor(run)
	if err != nil {
		return run, nil, diags.Diagnostics{diags.Errorf("Cannot serve the resource monitor",
			"Terrane could not listen for the component %s's registrations: %s.", run.subject(), err)}
	}
	run.ctx = ctx
	resp, err := p.client.Construct(ctx, &pulumirpc.ConstructRequest{
		Project: urnProject, Stack: urnStack, DryRun: dryRun, Parallel: constructParallelism,
		MonitorEndpoint: address, Type: rt.Token, Name: self.name(), Inputs: inputs,
	})
	// Registrations still running (a provider that returned without
	// waiting for them) finish first: their objects must be recorded.
	stop()
	run.mu.Lock()
	defer run.mu.Unlock()
	if err != nil {
		if len(run.problems) > 0 {
			return run, nil, run.problems
		}
		return run, nil, diags.Diagnostics{p.callFailure(ctx, "Construct", run.subject(), err)}
	}
	outputs := resp.GetState()
	if outputs == nil {
		outputs = run.outputs
	}
	return run, outputs, run.problems
}

// componentInputs marshals the configured inputs for Construct; secret
// inputs go as secrets when the provider accepts them.
func (p *Provider) componentInputs(rt *ResourceType, config cty.Value) (*structpb.Struct, error) {
	props := resource.PropertyMap{}
	config, _ = config.UnmarkDeep()
	for name := range rt.Inputs {
		if config.IsNull() || !config.Type().HasAttribute(name) {
			continue
		}
		v := config.GetAttr(name)
		if v.IsNull() {
			continue
		}
		pv, err := p.pkg.toProperty(v, config.Type().AttributeType(name))
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", name, err)
		}
		if rt.Secret[name] && p.acceptSecrets {
			pv = resource.MakeSecret(pv)
		}
		props[resource.PropertyKey(p.pkg.PulumiName(name))] = pv
	}
	return plugin.MarshalProperties(props, marshalOptions)
}

// unregistered lists the prior children this run did not register (and
// old objects of replaced children left deposed), in registration order.
func (r *componentRun) unregistered() []componentChild {
	var out []componentChild
	for _, child := range r.self.Children {
		if child.Deposed || !r.registered[child.URN] {
			out = append(out, child)
		}
	}
	return out
}

// planComponent previews the component with Construct's dry run. The
// planned private data is the prior one: applying constructs again from
// the prior children. The plan is the prior object when no child changes
// and no known output differs, so an unchanged component is a no-op.
func (p *Provider) planComponent(ctx context.Context, rt *ResourceType, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	self, err := decodeComponentPrivate(req.PriorPrivate, rt)
	if err != nil {
		return providers.PlanResourceChangeResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	run, outputs, problems := p.construct(ctx, rt, self, req.Config, true)
	if problems.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: problems}
	}
	planned, secrets, stateProblems := p.componentState(rt, req.Config, cty.NullVal(req.Config.Type()), self.URN, run.children, outputs, true)
	problems = append(problems, stateProblems...)
	unchanged := !run.changed && len(run.unregistered()) == 0
	if !req.PriorState.IsNull() && !stateProblems.HasErrors() && unchanged && plannedMatches(req.PriorState, planned) {
		planned = req.PriorState
	}
	return providers.PlanResourceChangeResponse{PlannedState: planned, PlannedPrivate: self.encode(), SensitivePaths: secrets, Diagnostics: problems}
}

// plannedMatches reports whether every known planned attribute equals the
// prior one: the component's children and outputs would not change.
func plannedMatches(prior, planned cty.Value) bool {
	prior, _ = prior.UnmarkDeep()
	for name, value := range planned.AsValueMap() {
		if value.IsWhollyKnown() && !value.RawEquals(prior.GetAttr(name)) {
			return false
		}
	}
	return true
}

// applyComponent constructs the component for real. Children it no longer
// registers are deleted afterwards, last registered first. When Construct
// fails, the children that exist are recorded with the error, so none is
// lost.
func (p *Provider) applyComponent(ctx context.Context, rt *ResourceType, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	self, err := decodeComponentPrivate(req.PlannedPrivate, rt)
	if err != nil {
		return providers.ApplyResourceChangeResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	if req.PlannedState.IsNull() {
		return p.deleteComponent(ctx, rt, self, req.PriorState)
	}
	run, outputs, problems := p.construct(ctx, rt, self, req.Config, false)
	children := run.children
	if problems.HasErrors() {
		children = append(children, run.unregistered()...)
	} else {
		left, deleteProblems := p.deleteChildren(ctx, run.unregistered())
		children, problems = append(children, left...), append(problems, deleteProblems...)
	}
	if problems.HasErrors() && req.PriorState.IsNull() && len(children) == 0 {
		return providers.ApplyResourceChangeResponse{NewState: req.PriorState, Children: providerChildren(nil), Diagnostics: definiteOutcome(problems)}
	}
	self.Children = children
	state, secrets, stateProblems := p.componentState(rt, req.Config, req.PriorState, self.URN, children, outputs, false)
	return providers.ApplyResourceChangeResponse{NewState: state, Private: self.encode(), Children: providerChildren(children),
		SensitivePaths: secrets, Diagnostics: definiteOutcome(append(problems, stateProblems...))}
}

// definiteOutcome renames the failures that tell the engine a call's
// outcome is unknown: a component's outcome is always known, because the
// monitor saw every child's answer, so the children that exist are
// recorded instead of the component being left for recovery.
func definiteOutcome(problems diags.Diagnostics) diags.Diagnostics {
	out := make(diags.Diagnostics, len(problems))
	for i, d := range problems {
		if providers.OutcomeUnknown(diags.Diagnostics{d}) {
			d.Summary = "Component construction failed"
		}
		out[i] = d
	}
	return out
}

// deleteComponent deletes every child that still exists, last registered
// first; the component has no object of its own. A failed delete leaves
// the rest recorded.
func (p *Provider) deleteComponent(ctx context.Context, rt *ResourceType, self componentPrivate, prior cty.Value) providers.ApplyResourceChangeResponse {
	if prior.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: prior}
	}
	existing, problems := p.readChildren(ctx, self.Children)
	if problems.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: prior, Diagnostics: definiteOutcome(problems)}
	}
	left, problems := p.deleteChildren(ctx, existing)
	if !problems.HasErrors() {
		return providers.ApplyResourceChangeResponse{NewState: cty.NullVal(prior.Type()), Children: providerChildren(nil)}
	}
	problems = definiteOutcome(problems)
	self.Children = left
	attrs := prior.AsValueMap()
	attrs[childrenAttr] = childrenValue(left)
	return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(attrs), Private: self.encode(), Children: providerChildren(left), Diagnostics: problems}
}

// deleteChildren deletes children in reverse order and stops at the first
// failure, returning the children that still exist.
func (p *Provider) deleteChildren(ctx context.Context, children []componentChild) ([]componentChild, diags.Diagnostics) {
	for i := len(children) - 1; i >= 0; i-- {
		child := children[i]
		rt := p.pkg.resourceByToken(child.Type)
		subject := "the component child " + child.Name + " (" + TypeName(child.Type) + ")"
		if rt == nil {
			return children[:i+1], diags.Diagnostics{diags.Errorf("Component child of an unknown type",
				"Terrane cannot delete %s: the provider %s's schema no longer lists the type %s. Delete the object %q by hand and remove the component from the state.", subject, p.name, child.Type, child.ID)}
		}
		if problems := p.deleteChildObject(ctx, rt, child, subject); problems.HasErrors() {
			return children[:i+1], problems
		}
	}
	return nil, nil
}

// componentState is the component's object: its inputs as configured
// (or, where left unset, as its outputs say), its outputs, its URN as id
// and its children. In a dry run, an output the component did not report
// is unknown; after a failed Construct (outputs nil) the prior object's
// outputs stay. The paths the component returned as secrets are returned
// too, for the engine to mark sensitive.
func (p *Provider) componentState(rt *ResourceType, config, prior cty.Value, urn string, children []componentChild, outputs *structpb.Struct, dryRun bool) (cty.Value, []cty.Path, diags.Diagnostics) {
	ty := rt.Schema.Block.ImpliedType()
	v, secrets, err := p.pkg.fromWire(outputs, ty)
	if err != nil {
		return cty.NilVal, nil, p.answerProblem(TypeName(rt.Token), err)
	}
	config, _ = config.UnmarkDeep()
	prior, _ = prior.UnmarkDeep()
	attrs := v.AsValueMap()
	for name, attr := range rt.Schema.Block.Attributes {
		_, reported := outputs.GetFields()[p.pkg.PulumiName(name)]
		switch {
		case rt.Inputs[name] && !config.GetAttr(name).IsNull():
			attrs[name] = config.GetAttr(name)
		case outputs == nil && !prior.IsNull():
			attrs[name] = prior.GetAttr(name)
		case dryRun && attr.Computed && !reported && !rt.Inputs[name]:
			attrs[name] = cty.UnknownVal(ty.AttributeType(name))
		}
	}
	attrs["id"] = cty.StringVal(urn)
	attrs[childrenAttr] = childrenValue(children)
	return cty.ObjectVal(attrs), secrets, nil
}
