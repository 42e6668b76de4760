package pulumi

import (
	"context"
	"net"
	"strings"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/diags"
)

// componentRun is one Construct of a component: the resource monitor the
// provider registers the component's children with, and what the
// registrations produced. A dry run previews each child; a real run
// creates, updates or replaces it.
type componentRun struct {
	// ctx is the Construct call's context: cancelling it (an interrupt)
	// cancels the provider calls registrations make.
	ctx       context.Context
	provider  *Provider
	component *ResourceType
	self      componentPrivate
	dryRun    bool
	// prior are the children the component had, by URN.
	prior map[string]componentChild

	mu sync.Mutex
	// children are the children registered so far, in registration
	// order; in a real run, only those that exist.
	children   []componentChild
	registered map[string]bool
	// changed is set when a child is planned to change (dry run).
	changed  bool
	outputs  *structpb.Struct
	problems diags.Diagnostics
}

func newComponentRun(p *Provider, rt *ResourceType, self componentPrivate, dryRun bool) *componentRun {
	prior := make(map[string]componentChild, len(self.Children))
	for _, child := range self.Children {
		if !child.Deposed {
			prior[child.URN] = child
		}
	}
	return &componentRun{ctx: context.Background(), provider: p, component: rt, self: self, dryRun: dryRun, prior: prior, registered: map[string]bool{}}
}

// fail records a diagnostic and returns the error the provider gets, so
// its Construct stops; Terrane reports the diagnostic, not the
// provider's rendering of it.
func (r *componentRun) fail(d diags.Diagnostic) error {
	r.mu.Lock()
	r.problems = append(r.problems, d)
	r.mu.Unlock()
	return status.Error(codes.FailedPrecondition, d.Summary+": "+d.Detail)
}

func (r *componentRun) subject() string {
	return TypeName(r.component.Token) + " " + r.self.name()
}

// monitorServer is the ResourceMonitor a component provider's Construct
// registers its resources with.
type monitorServer struct {
	pulumirpc.UnimplementedResourceMonitorServer
	run *componentRun
}

// serveMonitor listens on a loopback port for one Construct; stop ends it
// once the registrations under way have finished.
func serveMonitor(run *componentRun) (address string, stop func(), err error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	server := grpc.NewServer()
	pulumirpc.RegisterResourceMonitorServer(server, &monitorServer{run: run})
	go func() { _ = server.Serve(listener) }()
	return listener.Addr().String(), server.GracefulStop, nil
}

// callContext is the context of the provider calls one registration
// makes: done when the registration's own call or the Construct is.
func (r *componentRun) callContext(handler context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(handler)
	stopAfter := context.AfterFunc(r.ctx, cancel)
	return ctx, func() {
		stopAfter()
		cancel()
	}
}

// monitorFeatures are the features the monitor supports: secrets travel
// as secrets both ways. Resource references and output values are not
// offered, so SDKs send plain values.
var monitorFeatures = map[string]bool{"secrets": true}

func (m *monitorServer) SupportsFeature(_ context.Context, req *pulumirpc.SupportsFeatureRequest) (*pulumirpc.SupportsFeatureResponse, error) {
	return &pulumirpc.SupportsFeatureResponse{HasSupport: monitorFeatures[req.GetId()]}, nil
}

// RegisterResource handles the component itself and nested components
// (no object of their own: a URN is all they get) and children, which
// are created through the component's own provider.
func (m *monitorServer) RegisterResource(ctx context.Context, req *pulumirpc.RegisterResourceRequest) (*pulumirpc.RegisterResourceResponse, error) {
	run := m.run
	if req.GetRemote() {
		return nil, run.fail(diags.Errorf("Nested remote component not supported",
			"The component %s registered %q of type %s, a component of another provider. Terrane does not run components inside components yet.", run.subject(), req.GetName(), req.GetType()))
	}
	urn := childURN(req.GetParent(), req.GetType(), req.GetName())
	if !req.GetCustom() {
		if req.GetParent() == "" && urn != run.self.URN {
			return nil, run.fail(diags.Errorf("Unexpected component registration",
				"The component %s registered the top-level component %s, but Terrane asked it to construct %s. This is a bug in the provider %s.", run.subject(), urn, run.self.URN, run.provider.name))
		}
		return &pulumirpc.RegisterResourceResponse{Urn: urn, Object: &structpb.Struct{}}, nil
	}
	callCtx, cancel := run.callContext(ctx)
	defer cancel()
	child, object, err := run.registerChild(callCtx, req, urn)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.RegisterResourceResponse{Urn: urn, Id: child.ID, Object: object}, nil
}

// RegisterResourceOutputs keeps the component's own outputs; nested
// components' outputs are not recorded.
func (m *monitorServer) RegisterResourceOutputs(_ context.Context, req *pulumirpc.RegisterResourceOutputsRequest) (*emptypb.Empty, error) {
	if req.GetUrn() == m.run.self.URN {
		m.run.mu.Lock()
		m.run.outputs = req.GetOutputs()
		m.run.mu.Unlock()
	}
	return &emptypb.Empty{}, nil
}

// Invoke runs a function of the component's own provider.
func (m *monitorServer) Invoke(ctx context.Context, req *pulumirpc.ResourceInvokeRequest) (*pulumirpc.ResourceInvokeResponse, error) {
	run := m.run
	if pkg := packageOf(req.GetTok()); pkg != run.provider.name {
		return nil, run.fail(diags.Errorf("Component invoked another package",
			"The component %s invoked %s, a function of the package %s. Terrane runs a component with its own provider %s only.", run.subject(), req.GetTok(), pkg, run.provider.name))
	}
	resp, err := run.provider.client.Invoke(ctx, &pulumirpc.InvokeRequest{Tok: req.GetTok(), Args: req.GetArgs()})
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ResourceInvokeResponse{Return: resp.GetReturn(), Failures: resp.GetFailures()}, nil
}

// ReadResource (reading an existing object into a component) is refused
// by name: Terrane would have nowhere to keep the read object.
func (m *monitorServer) ReadResource(_ context.Context, req *pulumirpc.ReadResourceRequest) (*pulumirpc.ReadResourceResponse, error) {
	return nil, m.run.fail(diags.Errorf("Component read an existing resource",
		"The component %s asked to read the existing %s %q, which Terrane does not support inside components.", m.run.subject(), req.GetType(), req.GetName()))
}

// childURN names a resource registered under parent, as Pulumi's engine
// does: the parent's type chain, "$", the type, "::", the name.
func childURN(parent, typeToken, name string) string {
	if parent == "" {
		return objectURN(typeToken, name)
	}
	parts := strings.SplitN(parent, "::", 4)
	if len(parts) != 4 {
		return objectURN(typeToken, name)
	}
	return "urn:pulumi:" + urnStack + "::" + urnProject + "::" + parts[2] + "$" + typeToken + "::" + name
}

// packageOf is the package a token belongs to ("pkg:module:Type").
func packageOf(token string) string {
	pkg, _, _ := strings.Cut(token, ":")
	return pkg
}
