package pulumi

import (
	"context"
	"fmt"
	"os/exec"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// Provider is a running Pulumi provider adapted to providers.Interface.
type Provider struct {
	// name is the package name: the sub-package's once parameterized.
	name string
	// base and subpackageVersion are set by Parameterize: the base
	// package's name and the sub-package's version.
	base              string
	subpackageVersion string
	logger            hclog.Logger
	engine            *engineServer
	tail              *lineTail
	cmd               *exec.Cmd
	exited            chan struct{}
	conn              *grpc.ClientConn
	client            pulumirpc.ResourceProviderClient

	// Answers of Handshake, or of Configure when Handshake is missing.
	acceptSecrets   bool
	acceptOutputs   bool
	supportsPreview bool

	schemaOnce sync.Once
	pkg        *Package
	// streams are the streaming data sources (see stream.go).
	streams    map[string]*Function
	schemaDiag diags.Diagnostics
	closeOnce  sync.Once
}

var _ providers.Interface = (*Provider)(nil)

// handshake calls Handshake; a provider without it answers in Configure.
func (p *Provider) handshake(ctx context.Context) error {
	resp, err := p.client.Handshake(ctx, &pulumirpc.ProviderHandshakeRequest{EngineAddress: p.engine.Address()})
	if status.Code(err) == codes.Unimplemented {
		p.logger.Debug("provider has no Handshake; Configure will say what it accepts")
		return nil
	}
	if err != nil {
		return diags.Diagnostics{p.callFailure(ctx, "Handshake", "", err)}.Err()
	}
	p.acceptSecrets = resp.GetAcceptSecrets()
	p.acceptOutputs = resp.GetAcceptOutputs()
	return nil
}

// PluginVersion asks the provider for its version (GetPluginInfo).
func (p *Provider) PluginVersion(ctx context.Context) (string, error) {
	info, err := p.client.GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil {
		return "", diags.Diagnostics{p.callFailure(ctx, "GetPluginInfo", "", err)}.Err()
	}
	return info.GetVersion(), nil
}

// EngineAddress is the address of the engine service the provider calls.
func (p *Provider) EngineAddress() string { return p.engine.Address() }

// PID is the provider's process ID, or 0 when attached.
func (p *Provider) PID() int {
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Exited reports whether the launched process has ended.
func (p *Provider) Exited() bool {
	if p.exited == nil {
		return false
	}
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// StderrTail is the end of what the provider wrote to stderr.
func (p *Provider) StderrTail() string { return p.tail.String() }

// StopProvider sends Cancel: the provider should end its operations soon.
func (p *Provider) StopProvider(ctx context.Context) error {
	_, err := p.client.Cancel(ctx, &emptypb.Empty{})
	if err != nil && status.Code(err) != codes.Unimplemented {
		return diags.Diagnostics{p.callFailure(ctx, "Cancel", "", err)}.Err()
	}
	return nil
}

// shutdownGrace is how long a provider gets to exit after its connection
// closes before it is killed.
const shutdownGrace = 2 * time.Second

// Close ends the connection, the process and the engine service.
func (p *Provider) Close() error {
	p.closeOnce.Do(func() {
		if p.conn != nil {
			_ = p.conn.Close()
		}
		if p.cmd != nil && p.cmd.Process != nil {
			_ = p.cmd.Process.Signal(interruptSignal)
			select {
			case <-p.exited:
			case <-time.After(shutdownGrace):
				_ = p.cmd.Process.Kill()
				<-p.exited
			}
		}
		p.engine.stop()
	})
	return nil
}

// callFailure turns a failed call into a diagnostic naming the provider,
// the call and the resource type.
//
// Pulumi providers answer a failed operation with an error status, so an
// error status is an answer: the operation failed, and (unless the error
// carries ErrorResourceInitFailed, see applyFailure) changed nothing, as
// Pulumi's engine takes it (it completes the step's pending operation).
// Only a call whose answer never came is uncertain: cancelled, the process
// gone, or the connection lost; those keep the summaries the engine reads
// as "the outcome is unknown".
func (p *Provider) callFailure(ctx context.Context, rpc, typeName string, err error) diags.Diagnostic {
	subject := rpc
	if typeName != "" {
		subject = fmt.Sprintf("%s for %s", rpc, typeName)
	}
	st := status.Convert(err)
	switch code := st.Code(); {
	case ctx.Err() != nil || code == codes.Canceled || code == codes.DeadlineExceeded:
		return diags.Errorf("Provider did not answer",
			"The Pulumi provider %s did not answer %s before the operation was cancelled. The object it was working on may be partly changed; the next plan reads it back.", p.name, subject)
	case code == codes.Unavailable && p.waitExited(), (code == codes.Unknown || code == codes.Internal) && p.Exited():
		return diags.Errorf("Provider crashed",
			"The Pulumi provider %s stopped while Terrane waited for its answer to %s. This is a bug in the provider: please report it to its developers.%s", p.name, subject, tailSection(p.tail.String()))
	case code == codes.Unavailable:
		return diags.Errorf("Provider call failed",
			"Terrane lost the connection to the Pulumi provider %s while waiting for its answer to %s: %s. The object it was working on may be partly changed; the next plan reads it back.", p.name, subject, st.Message())
	case code == codes.Unimplemented:
		return diags.Errorf("Provider does not support "+rpc,
			"The Pulumi provider %s does not implement %s, which Terrane needed for %s.", p.name, rpc, subject)
	}
	return diags.Errorf("Provider returned an error", "The Pulumi provider %s answered %s with an error: %s", p.name, subject, st.Message())
}

func (p *Provider) waitExited() bool {
	if p.exited == nil {
		return false
	}
	select {
	case <-p.exited:
		return true
	case <-time.After(shutdownGrace):
		return false
	}
}

// schema fetches and converts the package schema once per process.
func (p *Provider) schema(ctx context.Context) (*Package, diags.Diagnostics) {
	p.schemaOnce.Do(func() {
		req := &pulumirpc.GetSchemaRequest{}
		if p.base != "" {
			req.SubpackageName, req.SubpackageVersion = p.name, p.subpackageVersion
		}
		resp, err := p.client.GetSchema(ctx, req)
		if err != nil {
			p.schemaDiag = diags.Diagnostics{p.callFailure(ctx, "GetSchema", "", err)}
			return
		}
		p.pkg, p.schemaDiag = ParseSchema(p.name, []byte(resp.GetSchema()))
		if p.pkg != nil {
			p.pkg.useTerraformNames(p.terraformNames(ctx))
			p.streams = p.pkg.addStreamingDataSources()
		}
	})
	return p.pkg, p.schemaDiag
}

func (p *Provider) GetMetadata(ctx context.Context) providers.GetMetadataResponse {
	pkg, problems := p.schema(ctx)
	resp := providers.GetMetadataResponse{Diagnostics: problems}
	if pkg != nil {
		resp.ResourceTypes = sortedKeys(pkg.Resources)
		resp.DataSources = sortedKeys(pkg.DataSources)
	}
	return resp
}

func (p *Provider) GetProviderSchema(ctx context.Context) providers.GetProviderSchemaResponse {
	pkg, problems := p.schema(ctx)
	resp := providers.GetProviderSchemaResponse{Diagnostics: problems,
		ResourceTypes: map[string]schema.Schema{}, DataSources: map[string]schema.Schema{}}
	if pkg == nil {
		return resp
	}
	resp.Provider = pkg.Provider
	for name, rt := range pkg.Resources {
		resp.ResourceTypes[name] = rt.Schema
	}
	for name, fn := range pkg.DataSources {
		resp.DataSources[name] = fn.Schema
	}
	resp.Functions = pkg.functionDecls()
	return resp
}

func (p *Provider) GetResourceIdentitySchemas(context.Context) providers.GetResourceIdentitySchemasResponse {
	return providers.GetResourceIdentitySchemasResponse{}
}

// UpgradeResourceState reads the stored JSON as it is: Pulumi providers
// have no schema versions (they migrate in Read).
func (p *Provider) UpgradeResourceState(ctx context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	rt, problems := p.resourceType(ctx, req.TypeName)
	if problems.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: problems}
	}
	v, err := ctyjson.Unmarshal(req.RawStateJSON, rt.Schema.Block.ImpliedType())
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Stored object does not match the schema",
			"The stored %s object does not match the schema of the Pulumi provider %s: %s.", req.TypeName, p.name, err)}}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

func (p *Provider) UpgradeResourceIdentity(context.Context, providers.UpgradeResourceIdentityRequest) providers.UpgradeResourceIdentityResponse {
	return providers.UpgradeResourceIdentityResponse{Diagnostics: p.unsupported("resource identities")}
}

func (p *Provider) ValidateEphemeralResourceConfig(context.Context, providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return providers.ValidateEphemeralResourceConfigResponse{Diagnostics: p.unsupported("ephemeral resources")}
}

func (p *Provider) MoveResourceState(context.Context, providers.MoveResourceStateRequest) providers.MoveResourceStateResponse {
	return providers.MoveResourceStateResponse{Diagnostics: p.unsupported("moving objects between resource types")}
}

func (p *Provider) OpenEphemeralResource(context.Context, providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	return providers.OpenEphemeralResourceResponse{Diagnostics: p.unsupported("ephemeral resources")}
}

func (p *Provider) RenewEphemeralResource(context.Context, providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	return providers.RenewEphemeralResourceResponse{Diagnostics: p.unsupported("ephemeral resources")}
}

func (p *Provider) CloseEphemeralResource(context.Context, providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	return providers.CloseEphemeralResourceResponse{Diagnostics: p.unsupported("ephemeral resources")}
}

// GetFunctions declares the components' methods (see call.go).
func (p *Provider) GetFunctions(ctx context.Context) providers.GetFunctionsResponse {
	pkg, problems := p.schema(ctx)
	if pkg == nil {
		return providers.GetFunctionsResponse{Diagnostics: problems}
	}
	return providers.GetFunctionsResponse{Functions: pkg.functionDecls()}
}

// CallFunction calls a component's method; a Pulumi provider's other
// functions are data sources.
func (p *Provider) CallFunction(ctx context.Context, req providers.CallFunctionRequest) providers.CallFunctionResponse {
	if pkg, _ := p.schema(ctx); pkg != nil {
		if m := pkg.methodByName(req.FunctionName); m != nil {
			return p.callMethod(ctx, m, req.Arguments)
		}
	}
	return providers.CallFunctionResponse{Result: cty.NilVal, Err: &providers.FunctionError{
		Text: fmt.Sprintf("the Pulumi provider %s has no provider function %s: its functions are data sources, and only components' methods are provider functions", p.name, req.FunctionName)}}
}

func (p *Provider) unsupported(what string) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Not supported by Pulumi providers",
		"The provider %s is a Pulumi provider, which has no %s.", p.name, what)}
}
