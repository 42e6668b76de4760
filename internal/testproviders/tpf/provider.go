package tpf

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/metaschema"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// Variant selects which protocol a provider instance is built for.
type Variant struct {
	// TypeName prefixes every resource, data source and ephemeral resource
	// type, e.g. "tpf" gives tpf_thing.
	TypeName string
	// NestedAttributes registers the resources that need protocol 6; it
	// also selects the protocol Serve speaks (6 with, 5 without).
	NestedAttributes bool
}

// Protocol6 is the variant served as terraform-provider-tpf.
var Protocol6 = Variant{TypeName: "tpf", NestedAttributes: true}

// Protocol5 is the variant served as terraform-provider-tpf5.
var Protocol5 = Variant{TypeName: "tpf5"}

// New returns a constructor for the provider in the given variant.
func New(variant Variant, version string) func() provider.Provider {
	return func() provider.Provider {
		return &testProvider{variant: variant, version: version}
	}
}

type testProvider struct {
	variant Variant
	version string
}

var (
	_ provider.ProviderWithFunctions          = (*testProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*testProvider)(nil)
	_ provider.ProviderWithMetaSchema         = (*testProvider)(nil)
)

// MetaSchema declares the provider_meta a module may give the provider:
// module_name, which creates record (see recordProviderMeta).
func (p *testProvider) MetaSchema(_ context.Context, _ provider.MetaSchemaRequest, resp *provider.MetaSchemaResponse) {
	resp.Schema = metaschema.Schema{Attributes: map[string]metaschema.Attribute{
		"module_name": metaschema.StringAttribute{Optional: true},
	}}
}

type providerModel struct {
	RootDir       types.String `tfsdk:"root_dir"`
	FailConfigure types.String `tfsdk:"fail_configure"`
}

func (p *testProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = p.variant.TypeName
	resp.Version = p.version
}

func (p *testProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Test provider whose objects are JSON files under root_dir.",
		Attributes: map[string]schema.Attribute{
			"root_dir": schema.StringAttribute{
				Optional:    true,
				Description: "Directory holding the cloud's objects; defaults to $" + cloud.EnvRoot + ".",
			},
			"fail_configure": schema.StringAttribute{
				Optional:    true,
				Description: "When set, ConfigureProvider fails with this text as the error detail.",
			},
		},
	}
}

func (p *testProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var config providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if msg := config.FailConfigure.ValueString(); msg != "" {
		resp.Diagnostics.AddError("Configuration refused", msg)
		return
	}
	if config.RootDir.IsUnknown() {
		// The engine may configure a provider for planning with values that
		// are not known yet; resources then fail only if they touch the cloud.
		return
	}
	c, err := cloud.Open(config.RootDir.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(rootDirPath, "Cannot open the test cloud", err.Error())
		return
	}
	resp.ResourceData = c
	resp.DataSourceData = c
	resp.EphemeralResourceData = c
}

func (p *testProvider) Resources(context.Context) []func() resource.Resource {
	prefix := p.variant.TypeName
	constructors := []func() resource.Resource{
		func() resource.Resource { return newThingResource(prefix) },
		func() resource.Resource { return newBlocksResource(prefix) },
		func() resource.Resource { return newVersionedResource(prefix) },
		func() resource.Resource { return newLegacyResource(prefix) },
	}
	if p.variant.NestedAttributes {
		constructors = append(constructors, func() resource.Resource { return newNestedResource(prefix) })
	}
	return constructors
}

func (p *testProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		func() datasource.DataSource { return &thingDataSource{prefix: p.variant.TypeName} },
	}
}

func (p *testProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		func() ephemeral.EphemeralResource { return &tokenEphemeral{prefix: p.variant.TypeName} },
	}
}

func (p *testProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		func() function.Function { return reverseFunction{} },
		func() function.Function { return sqrtFunction{} },
		func() function.Function { return echoFunction{} },
	}
}

// Serve runs the provider variant as a plugin process until the host stops
// it; debug makes it print TF_REATTACH_PROVIDERS instead.
func Serve(variant Variant, debug bool) error {
	protocol := 6
	if !variant.NestedAttributes {
		protocol = 5
	}
	return providerserver.Serve(context.Background(), New(variant, "0.1.0"), providerserver.ServeOpts{
		Address:         "registry.terraform.io/terrane/" + variant.TypeName,
		Debug:           debug,
		ProtocolVersion: protocol,
	})
}
