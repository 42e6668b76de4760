package pulumi

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// readComponent refreshes a component by reading each child: a child
// whose object is gone is dropped (the next Construct creates it again),
// and the others take the outputs and inputs Read reports, as Pulumi's
// refresh does, so the next Diff compares against the real objects.
func (p *Provider) readComponent(ctx context.Context, rt *ResourceType, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	self, err := decodeComponentPrivate(req.Private, rt)
	if err != nil {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private, Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	kept, problems := p.readChildren(ctx, self.Children)
	if problems.HasErrors() {
		return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private, Diagnostics: problems}
	}
	self.Children = kept
	prior, marks := req.PriorState.UnmarkDeepWithPaths()
	attrs := prior.AsValueMap()
	attrs[childrenAttr] = childrenValue(kept)
	return providers.ReadResourceResponse{NewState: cty.ObjectVal(attrs).MarkWithPaths(marks), Private: self.encode()}
}

// readChildren reads every child and returns those whose objects exist.
func (p *Provider) readChildren(ctx context.Context, children []componentChild) ([]componentChild, diags.Diagnostics) {
	kept := make([]componentChild, 0, len(children))
	for _, child := range children {
		read, exists, problems := p.readChild(ctx, child)
		if problems.HasErrors() {
			return children, problems
		}
		if exists {
			kept = append(kept, read)
		}
	}
	return kept, nil
}

// readChild reads one child's object; exists is false when it is gone.
func (p *Provider) readChild(ctx context.Context, child componentChild) (componentChild, bool, diags.Diagnostics) {
	subject := "the component child " + child.Name + " (" + TypeName(child.Type) + ")"
	outputs, err := wireStruct(child.Outputs)
	if err != nil {
		return child, false, p.privateProblem(subject, err)
	}
	inputs, err := wireStruct(child.Inputs)
	if err != nil {
		return child, false, p.privateProblem(subject, err)
	}
	resp, err := p.client.Read(ctx, &pulumirpc.ReadRequest{Id: child.ID, Urn: child.URN, Properties: outputs, Inputs: inputs, Name: child.Name, Type: child.Type})
	if err != nil {
		return child, false, diags.Diagnostics{p.callFailure(ctx, "Read", subject, err)}
	}
	if resp.GetId() == "" {
		return child, false, nil
	}
	child.ID, child.Outputs = resp.GetId(), wireJSON(resp.GetProperties())
	if resp.GetInputs() != nil {
		child.Inputs = wireJSON(resp.GetInputs())
	}
	return child, true, nil
}
