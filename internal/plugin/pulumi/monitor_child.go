package pulumi

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/diags"
)

// childStep is what a registration does to a child, decided by Diff.
type childStep int

const (
	childCreate childStep = iota
	childSame
	childUpdate
	childReplace
	// childReplaceDeleteFirst is a replacement whose old object goes
	// first (the provider's deleteBeforeReplace).
	childReplaceDeleteFirst
)

// registerChild handles one child the way Pulumi's engine does: Check
// with the prior inputs and the child's seed, Diff against the prior
// object, then a preview (dry run) or Create, Update or replacement.
func (r *componentRun) registerChild(ctx context.Context, req *pulumirpc.RegisterResourceRequest, urn string) (componentChild, *structpb.Struct, error) {
	p := r.provider
	if pkg := packageOf(req.GetType()); pkg != p.name {
		return componentChild{}, nil, r.fail(diags.Errorf("Component child from another package",
			"The component %s registered the child %q of type %s, which belongs to the package %s. Terrane creates a component's children with the component's own provider %s, so they must be resources of that package.",
			r.subject(), req.GetName(), req.GetType(), pkg, p.name))
	}
	rt := p.pkg.resourceByToken(req.GetType())
	if rt == nil {
		return componentChild{}, nil, r.fail(diags.Errorf("Component child of an unknown type",
			"The component %s registered the child %q of type %s, which the provider %s's schema does not list.", r.subject(), req.GetName(), req.GetType(), p.name))
	}
	r.mu.Lock()
	duplicate := r.registered[urn]
	r.registered[urn] = true
	r.mu.Unlock()
	if duplicate {
		return componentChild{}, nil, r.fail(diags.Errorf("Component child registered twice",
			"The component %s registered the child %s twice. This is a bug in the provider %s.", r.subject(), urn, p.name))
	}
	prior, hadPrior := r.prior[urn]
	child := componentChild{URN: urn, Type: req.GetType(), Name: req.GetName()}
	checked, err := r.checkChild(ctx, rt, child, prior, ignoreChanges(req.GetObject(), prior.Inputs, req.GetIgnoreChanges()))
	if err != nil {
		return componentChild{}, nil, err
	}
	child.Inputs = wireJSON(checked)
	step := childCreate
	if hadPrior {
		if step, err = r.diffChild(ctx, rt, prior, checked); err != nil {
			return componentChild{}, nil, err
		}
		step = replaceOptions(step, req, checked, prior.Inputs)
	}
	if step == childSame {
		r.record(prior, false)
		outputs, _ := wireStruct(prior.Outputs)
		return prior, outputs, nil
	}
	if r.dryRun {
		return r.previewChild(ctx, rt, step, child, prior, checked)
	}
	return r.changeChild(ctx, rt, step, child, prior, checked)
}

// ignoreChanges keeps the prior inputs of the properties a registration
// asks to ignore, as Pulumi's ignoreChanges option does. Paths are honoured
// by their top-level property.
func ignoreChanges(news *structpb.Struct, priorInputs json.RawMessage, ignore []string) *structpb.Struct {
	olds, err := wireStruct(priorInputs)
	if len(ignore) == 0 || err != nil || olds == nil {
		return news
	}
	out := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	for key, value := range news.GetFields() {
		out.Fields[key] = value
	}
	for _, path := range ignore {
		key := propertyRoot(path)
		if old, ok := olds.GetFields()[key]; ok {
			out.Fields[key] = old
		} else {
			delete(out.Fields, key)
		}
	}
	return out
}

// replaceOptions applies a registration's replaceOnChanges ("*" for any
// property) and deleteBeforeReplace options to Diff's decision.
func replaceOptions(step childStep, req *pulumirpc.RegisterResourceRequest, checked *structpb.Struct, priorInputs json.RawMessage) childStep {
	if step == childUpdate && len(req.GetReplaceOnChanges()) > 0 {
		olds, _ := wireStruct(priorInputs)
		for _, key := range changedInputKeys(checked, olds) {
			if slices.Contains(req.GetReplaceOnChanges(), "*") || slices.ContainsFunc(req.GetReplaceOnChanges(), func(path string) bool { return propertyRoot(path) == key }) {
				step = childReplace
				break
			}
		}
	}
	if step == childReplace && req.GetDeleteBeforeReplace() {
		step = childReplaceDeleteFirst
	}
	return step
}

// propertyRoot is the top-level property of a Pulumi property path
// ("tags.env", "ports[0]").
func propertyRoot(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// record appends a child to the component's list.
func (r *componentRun) record(child componentChild, changed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.children = append(r.children, child)
	r.changed = r.changed || changed
}

func (r *componentRun) childSubject(child componentChild) string {
	return "the child " + child.Name + " (" + TypeName(child.Type) + ") of the component " + r.subject()
}

func (r *componentRun) checkChild(ctx context.Context, rt *ResourceType, child, prior componentChild, news *structpb.Struct) (*structpb.Struct, error) {
	p := r.provider
	olds, err := wireStruct(prior.Inputs)
	if err != nil {
		return nil, r.fail(p.privateProblem(r.subject(), err)[0])
	}
	resp, err := p.client.Check(ctx, &pulumirpc.CheckRequest{
		Urn: child.URN, Olds: olds, News: news, RandomSeed: childSeed(r.self.Seed, child.URN), Name: child.Name, Type: rt.Token,
	})
	if err != nil {
		return nil, r.fail(p.callFailure(ctx, "Check", r.childSubject(child), err))
	}
	if problems := p.checkFailures(resp.GetFailures(), r.childSubject(child)); problems.HasErrors() {
		r.mu.Lock()
		r.problems = append(r.problems, problems...)
		r.mu.Unlock()
		return nil, r.fail(diags.Errorf("Invalid component child", "The provider %s rejected %s; see the errors above.", p.name, r.childSubject(child)))
	}
	return resp.GetInputs(), nil
}

// diffChild decides a registered child's step from Diff against its
// prior object; replaceOnChanges in the schema replaces as for resources.
func (r *componentRun) diffChild(ctx context.Context, rt *ResourceType, prior componentChild, checked *structpb.Struct) (childStep, error) {
	p := r.provider
	priorState, problems := r.childState(rt, prior)
	if problems.HasErrors() {
		return 0, r.fail(problems[0])
	}
	oldInputs, err := wireStruct(prior.Inputs)
	if err != nil {
		return 0, r.fail(p.privateProblem(r.subject(), err)[0])
	}
	result, problems := p.diff(ctx, rt, privateData{URN: prior.URN}, priorState, checked, oldInputs, nil)
	switch {
	case problems.HasErrors():
		return 0, r.fail(problems[0])
	case !result.changed:
		return childSame, nil
	case len(result.replace) > 0:
		if result.deleteBeforeReplace {
			return childReplaceDeleteFirst, nil
		}
		return childReplace, nil
	}
	return childUpdate, nil
}

// previewChild answers a dry-run registration: the provider's preview
// when it supports previews, else the inputs (outputs left out, which the
// SDK reads as unknown).
func (r *componentRun) previewChild(ctx context.Context, rt *ResourceType, step childStep, child, prior componentChild, checked *structpb.Struct) (componentChild, *structpb.Struct, error) {
	p := r.provider
	outputs := checked
	if p.supportsPreview {
		var err error
		if step == childUpdate {
			var resp *pulumirpc.UpdateResponse
			olds, _ := wireStruct(prior.Outputs)
			oldInputs, _ := wireStruct(prior.Inputs)
			resp, err = p.client.Update(ctx, &pulumirpc.UpdateRequest{Id: prior.ID, Urn: child.URN, Olds: olds, News: checked, OldInputs: oldInputs, Preview: true, Name: child.Name, Type: rt.Token})
			outputs = resp.GetProperties()
		} else {
			var resp *pulumirpc.CreateResponse
			resp, err = p.client.Create(ctx, &pulumirpc.CreateRequest{Urn: child.URN, Properties: checked, Preview: true, Name: child.Name, Type: rt.Token})
			outputs = resp.GetProperties()
		}
		if err != nil {
			return componentChild{}, nil, r.fail(p.callFailure(ctx, "preview", r.childSubject(child), err))
		}
	}
	child.ID, child.pending = prior.ID, step != childUpdate
	if child.pending {
		child.ID = ""
	}
	child.Outputs = wireJSON(outputs)
	r.record(child, true)
	return child, outputs, nil
}

// changeChild creates, updates or replaces a child. A replaced child's
// old object is deleted first when the provider asks for that, else
// right after its replacement exists.
func (r *componentRun) changeChild(ctx context.Context, rt *ResourceType, step childStep, child, prior componentChild, checked *structpb.Struct) (componentChild, *structpb.Struct, error) {
	p := r.provider
	if step == childReplaceDeleteFirst {
		if err := r.deleteChild(ctx, rt, prior); err != nil {
			return componentChild{}, nil, err
		}
	}
	var err error
	var outputs *structpb.Struct
	if step == childUpdate {
		var resp *pulumirpc.UpdateResponse
		olds, _ := wireStruct(prior.Outputs)
		oldInputs, _ := wireStruct(prior.Inputs)
		resp, err = p.client.Update(ctx, &pulumirpc.UpdateRequest{Id: prior.ID, Urn: child.URN, Olds: olds, News: checked, OldInputs: oldInputs, Timeout: timeout(ctx), Name: child.Name, Type: rt.Token})
		child.ID, outputs = prior.ID, resp.GetProperties()
	} else {
		var resp *pulumirpc.CreateResponse
		resp, err = p.client.Create(ctx, &pulumirpc.CreateRequest{Urn: child.URN, Properties: checked, Timeout: timeout(ctx), Name: child.Name, Type: rt.Token})
		child.ID, outputs = resp.GetId(), resp.GetProperties()
	}
	if err != nil {
		return componentChild{}, nil, r.childFailure(ctx, rt, step, child, prior, err)
	}
	child.Outputs = wireJSON(outputs)
	r.record(child, true)
	if step == childReplace {
		if err := r.deleteChild(ctx, rt, prior); err != nil {
			return componentChild{}, nil, err
		}
	}
	return child, outputs, nil
}

// childFailure reports a failed create or update. The prior object of a
// failed update (or of a replacement whose create failed before the old
// one was deleted) still exists, so it stays in the component's list;
// a partially created object (ErrorResourceInitFailed) is kept too.
func (r *componentRun) childFailure(ctx context.Context, rt *ResourceType, step childStep, child, prior componentChild, err error) error {
	p := r.provider
	rpc := "Create"
	if step == childUpdate {
		rpc = "Update"
	}
	for _, detail := range status.Convert(err).Details() {
		if initFailed, ok := detail.(*pulumirpc.ErrorResourceInitFailed); ok && initFailed.GetId() != "" {
			child.ID, child.Outputs = initFailed.GetId(), wireJSON(initFailed.GetProperties())
			if initFailed.GetInputs() != nil {
				child.Inputs = wireJSON(initFailed.GetInputs())
			}
			r.record(child, true)
			if step == childReplace {
				_ = r.deleteChild(ctx, rt, prior)
			}
			return r.fail(diags.Errorf("Component child created but not ready",
				"The provider %s created %s (ID %q) but it failed to finish initialising: %s. Terrane recorded it with the component; the next apply updates or replaces it.",
				p.name, r.childSubject(child), child.ID, initFailed.GetReasons()))
		}
	}
	if step == childUpdate || step == childReplace {
		r.record(prior, false)
	}
	// A replacement that deleted first has lost the old object: only the
	// error remains to report.
	return r.fail(p.callFailure(ctx, rpc, r.childSubject(child), err))
}

// deleteChild deletes a replaced child's old object. When that fails the
// old object stays listed as deposed, so nothing is forgotten and the
// next apply deletes it.
func (r *componentRun) deleteChild(ctx context.Context, rt *ResourceType, old componentChild) error {
	p := r.provider
	if problems := p.deleteChildObject(ctx, rt, old, r.childSubject(old)); problems.HasErrors() {
		old.Deposed = true
		r.record(old, false)
		return r.fail(problems[0])
	}
	return nil
}

// deleteChildObject calls Delete for one child.
func (p *Provider) deleteChildObject(ctx context.Context, rt *ResourceType, child componentChild, subject string) diags.Diagnostics {
	olds, err := wireStruct(child.Outputs)
	if err != nil {
		return p.privateProblem(subject, err)
	}
	oldInputs, err := wireStruct(child.Inputs)
	if err != nil {
		return p.privateProblem(subject, err)
	}
	_, err = p.client.Delete(ctx, &pulumirpc.DeleteRequest{Id: child.ID, Urn: child.URN, Properties: olds, OldInputs: oldInputs, Timeout: timeout(ctx), Name: child.Name, Type: rt.Token})
	if err != nil {
		return diags.Diagnostics{p.callFailure(ctx, "Delete", subject, err)}
	}
	return nil
}

// childState is a child's prior object as a value of its type.
func (r *componentRun) childState(rt *ResourceType, child componentChild) (cty.Value, diags.Diagnostics) {
	v, err := r.provider.pkg.wireValue(child.Outputs, rt.Schema.Block.ImpliedType())
	if err != nil {
		return cty.NilVal, r.provider.privateProblem(r.subject(), err)
	}
	attrs := v.AsValueMap()
	attrs["id"] = cty.StringVal(child.ID)
	return cty.ObjectVal(attrs), nil
}
