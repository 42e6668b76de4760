package pulumi

import (
	"context"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/terrane/terrane/internal/diags"
)

// Parameters turn a provider into one of its sub-packages (Pulumi's
// Parameterize). They change the schema, so they are fixed when providers
// are resolved, never evaluated during a run: a requirement states Args
// and init records the Value the provider answers with, which later runs
// replay. Exactly one of Args and Value is set.
type Parameters struct {
	// Args are the parameters as a user writes them, e.g. the name of the
	// Terraform provider a bridge should wrap.
	Args []string
	// Value is a sub-package recorded earlier.
	Value *ParameterValue
}

// ParameterValue is a sub-package as recorded: its name and version and
// the provider's own encoding of the parameters (from the sub-package
// schema's parameterization.parameter).
type ParameterValue struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Value   []byte `json:"value"`
}

// parameterize calls Parameterize and makes the provider the sub-package
// it names: GetSchema asks for that sub-package and messages name it.
func (p *Provider) parameterize(ctx context.Context, params *Parameters) error {
	req := &pulumirpc.ParameterizeRequest{}
	switch {
	case params.Value != nil:
		req.Parameters = &pulumirpc.ParameterizeRequest_Value{Value: &pulumirpc.ParameterizeRequest_ParametersValue{
			Name: params.Value.Name, Version: params.Value.Version, Value: params.Value.Value}}
	default:
		req.Parameters = &pulumirpc.ParameterizeRequest_Args{Args: &pulumirpc.ParameterizeRequest_ParametersArgs{Args: params.Args}}
	}
	resp, err := p.client.Parameterize(ctx, req)
	if err != nil {
		d := p.callFailure(ctx, "Parameterize", "", err)
		d.Detail += fmt.Sprintf(" The parameters were %s; check them in the provider's requirement.", describeParameters(params))
		return diags.Diagnostics{d}.Err()
	}
	if resp.GetName() == "" {
		return diags.Diagnostics{diags.Errorf("Invalid provider answer",
			"The Pulumi provider %s answered Parameterize (%s) without a sub-package name. This is a bug in the provider.", p.name, describeParameters(params))}.Err()
	}
	p.logger.Debug("parameterized", "base", p.name, "subpackage", resp.GetName(), "version", resp.GetVersion())
	p.base = p.name
	p.name = resp.GetName()
	p.subpackageVersion = resp.GetVersion()
	return nil
}

func describeParameters(params *Parameters) string {
	if params.Value != nil {
		return fmt.Sprintf("the recorded sub-package %s %s", params.Value.Name, params.Value.Version)
	}
	return fmt.Sprintf("%q", params.Args)
}

// Parameterization is what to record so that later runs replay this
// provider's sub-package with the value form of Parameterize; nil when
// the provider was not parameterized. It reads the schema, whose
// parameterization.parameter is the provider's encoding of the parameters.
func (p *Provider) Parameterization(ctx context.Context) (*ParameterValue, error) {
	if p.base == "" {
		return nil, nil
	}
	pkg, problems := p.schema(ctx)
	if problems.HasErrors() {
		return nil, problems.Err()
	}
	if pkg.Parameter == nil {
		return nil, diags.Diagnostics{diags.Errorf("Invalid provider schema",
			"The Pulumi provider %s made the sub-package %s but its schema has no parameterization to record. This is a bug in the provider.", p.base, p.name)}.Err()
	}
	return &ParameterValue{Name: p.name, Version: p.subpackageVersion, Value: pkg.Parameter}, nil
}

// Subpackage is the base package name and the sub-package name and
// version, or empty strings when the provider is not parameterized.
func (p *Provider) Subpackage() (base, name, version string) {
	if p.base == "" {
		return "", "", ""
	}
	return p.base, p.name, p.subpackageVersion
}
