package pulumi

import (
	"context"
	"encoding/json"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// Pulumi names every object by URN; Terrane's objects live in one stack and
// project, and the provider's own URN is that of a default provider.
const (
	urnStack   = "terrane"
	urnProject = "terrane"
)

// objectURN builds "urn:pulumi:STACK::PROJECT::TYPE::NAME".
func objectURN(typeToken, name string) string {
	return "urn:pulumi:" + urnStack + "::" + urnProject + "::" + typeToken + "::" + name
}

func (p *Provider) providerType() string { return "pulumi:providers:" + p.name }

func (p *Provider) providerURN() string {
	return objectURN(p.providerType(), "default")
}

// ValidateProviderConfig runs CheckConfig; its failures name the property.
func (p *Provider) ValidateProviderConfig(ctx context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	resp := providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
	pkg, problems := p.schema(ctx)
	if problems.HasErrors() {
		resp.Diagnostics = problems
		return resp
	}
	news, err := pkg.argsToWire(req.Config, nil, p.wireOptions())
	if err != nil {
		resp.Diagnostics = p.valueProblem("CheckConfig", "provider configuration", err)
		return resp
	}
	checked, err := p.client.CheckConfig(ctx, &pulumirpc.CheckRequest{Urn: p.providerURN(), News: news, Name: "default", Type: p.providerType()})
	if err != nil {
		resp.Diagnostics = diags.Diagnostics{p.callFailure(ctx, "CheckConfig", "", err)}
		return resp
	}
	resp.Diagnostics = p.checkFailures(checked.GetFailures(), "the provider configuration")
	return resp
}

// ConfigureProvider sends the configuration both as args and as the
// legacy "pkg:config:key" variables older providers read.
func (p *Provider) ConfigureProvider(ctx context.Context, req providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	pkg, problems := p.schema(ctx)
	if problems.HasErrors() {
		return providers.ConfigureProviderResponse{Diagnostics: problems}
	}
	args, err := pkg.argsToWire(req.Config, nil, p.wireOptions())
	if err != nil {
		return providers.ConfigureProviderResponse{Diagnostics: p.valueProblem("Configure", "provider configuration", err)}
	}
	resp, err := p.client.Configure(ctx, &pulumirpc.ConfigureRequest{
		Variables: p.configVariables(pkg, req.Config), Args: args,
		AcceptSecrets: true, SendsOldInputs: true, SendsOldInputsToDelete: true,
	})
	if err != nil {
		return providers.ConfigureProviderResponse{Diagnostics: p.configureFailure(ctx, err)}
	}
	p.acceptSecrets = p.acceptSecrets || resp.GetAcceptSecrets()
	p.acceptOutputs = p.acceptOutputs || resp.GetAcceptOutputs()
	p.supportsPreview = resp.GetSupportsPreview()
	return providers.ConfigureProviderResponse{}
}

func (p *Provider) configVariables(pkg *Package, config cty.Value) map[string]string {
	vars := map[string]string{}
	props, err := pkg.toProperties(config, nil, false)
	if err != nil {
		return vars
	}
	for key, value := range props {
		name := p.name + ":config:" + string(key)
		if value.IsString() {
			vars[name] = value.StringValue()
		} else if encoded, err := json.Marshal(value.Mappable()); err == nil && !value.ContainsUnknowns() {
			vars[name] = string(encoded)
		}
	}
	return vars
}

// configureFailure explains ConfigureErrorMissingKeys by naming each key
// as the attribute to set in the provider block.
func (p *Provider) configureFailure(ctx context.Context, err error) diags.Diagnostics {
	var out diags.Diagnostics
	for _, detail := range status.Convert(err).Details() {
		if missing, ok := detail.(*pulumirpc.ConfigureErrorMissingKeys); ok {
			for _, key := range missing.GetMissingKeys() {
				attr := p.configAttribute(key.GetName())
				d := diags.Errorf("Missing provider configuration",
					"The Pulumi provider %s needs the setting %q (%s): %s. Set %s in the provider %q block.",
					p.name, attr, key.GetName(), key.GetDescription(), attr, p.name)
				d.AttributePath = cty.GetAttrPath(attr)
				out = append(out, d)
			}
		}
		if bad, ok := detail.(*errdetails.BadRequest); ok {
			for _, violation := range bad.GetFieldViolations() {
				out = append(out, diags.Errorf("Invalid provider configuration", "%s: %s", violation.GetField(), violation.GetDescription()))
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	return diags.Diagnostics{p.callFailure(ctx, "Configure", "", err)}
}

// configAttribute is the provider block attribute of a configuration key,
// which Pulumi names in full ("pkg:config:key" or "pkg:key") or bare.
func (p *Provider) configAttribute(key string) string {
	for _, prefix := range []string{p.name + ":config:", p.name + ":", p.base + ":config:", p.base + ":"} {
		if prefix != ":" && prefix != ":config:" && strings.HasPrefix(key, prefix) {
			key = strings.TrimPrefix(key, prefix)
			break
		}
	}
	return SnakeCase(key)
}

// checkFailures turns Check's failures into diagnostics naming the
// attribute (snake_case) and what it belongs to.
func (p *Provider) checkFailures(failures []*pulumirpc.CheckFailure, subject string) diags.Diagnostics {
	var out diags.Diagnostics
	for _, failure := range failures {
		d := diags.Errorf("Invalid value", "The Pulumi provider %s rejected %s: %s", p.name, subject, failure.GetReason())
		if failure.GetProperty() != "" {
			d.Detail = "The Pulumi provider " + p.name + " rejected the attribute \"" + SnakeCase(failure.GetProperty()) + "\" of " + subject + ": " + failure.GetReason()
			d.AttributePath = cty.GetAttrPath(SnakeCase(failure.GetProperty()))
		}
		out = append(out, d)
	}
	return out
}

func (p *Provider) valueProblem(rpc, subject string, err error) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Value cannot be sent to a Pulumi provider",
		"Terrane could not send the %s to the Pulumi provider %s for %s: %s.", subject, p.name, rpc, err)}
}
