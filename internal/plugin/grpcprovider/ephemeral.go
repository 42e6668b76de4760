package grpcprovider

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// ValidateEphemeralResourceConfig asks the provider to check an ephemeral
// resource's configuration.
func (p *Provider) ValidateEphemeralResourceConfig(ctx context.Context, req providers.ValidateEphemeralResourceConfigRequest) (resp providers.ValidateEphemeralResourceConfigResponse) {
	const rpc = "ValidateEphemeralResourceConfig"
	_, ty, problems := p.schemaFor(ctx, "ephemeral", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.ValidateEphemeralResourceConfig_Request{TypeName: req.TypeName, Config: c.encode("configuration", req.Config, ty)}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.ValidateEphemeralResourceConfig(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// OpenEphemeralResource opens an ephemeral resource (a secret, a token, a
// tunnel) for the duration of a run.
func (p *Provider) OpenEphemeralResource(ctx context.Context, req providers.OpenEphemeralResourceRequest) (resp providers.OpenEphemeralResourceResponse) {
	const rpc = "OpenEphemeralResource"
	_, ty, problems := p.schemaFor(ctx, "ephemeral", req.TypeName)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	c := p.codec(rpc, req.TypeName)
	in := &tfplugin6.OpenEphemeralResource_Request{
		TypeName:           req.TypeName,
		Config:             c.encode("configuration", req.Config, ty),
		ClientCapabilities: clientCapabilities(req.ClientCapabilities),
	}
	if c.problems.HasErrors() {
		resp.Diagnostics = c.problems
		return resp
	}
	out, err := p.cfg.Client.OpenEphemeralResource(ctx, in)
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.Result = c.decode("result", out.GetResult(), ty)
	resp.Private = out.GetPrivate()
	resp.RenewAt = renewAt(out.GetRenewAt())
	resp.Deferred = deferred(out.GetDeferred())
	resp.Diagnostics = c.result(out.GetDiagnostics())
	return resp
}

// RenewEphemeralResource extends an open ephemeral resource.
func (p *Provider) RenewEphemeralResource(ctx context.Context, req providers.RenewEphemeralResourceRequest) (resp providers.RenewEphemeralResourceResponse) {
	const rpc = "RenewEphemeralResource"
	out, err := p.cfg.Client.RenewEphemeralResource(ctx, &tfplugin6.RenewEphemeralResource_Request{TypeName: req.TypeName, Private: req.Private})
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.Private = out.GetPrivate()
	resp.RenewAt = renewAt(out.GetRenewAt())
	resp.Diagnostics = diagnostics(out.GetDiagnostics())
	return resp
}

// CloseEphemeralResource closes an ephemeral resource.
func (p *Provider) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) (resp providers.CloseEphemeralResourceResponse) {
	const rpc = "CloseEphemeralResource"
	out, err := p.cfg.Client.CloseEphemeralResource(ctx, &tfplugin6.CloseEphemeralResource_Request{TypeName: req.TypeName, Private: req.Private})
	if err != nil {
		resp.Diagnostics = p.failure(ctx, rpc, req.TypeName, err)
		return resp
	}
	resp.Diagnostics = diagnostics(out.GetDiagnostics())
	return resp
}

// renewAt is the time a provider asked to renew at; the protocol leaves
// the timestamp unset when no renewal is needed.
func renewAt(ts *timestamppb.Timestamp) time.Time {
	if ts == nil || (ts.GetSeconds() == 0 && ts.GetNanos() == 0) {
		return time.Time{}
	}
	return ts.AsTime()
}
