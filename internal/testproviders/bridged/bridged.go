package bridged

import (
	"context"
	"encoding/json"
	"io"

	pftfbridge "github.com/pulumi/pulumi-terraform-bridge/v3/pkg/pf/tfbridge"
	pftfgen "github.com/pulumi/pulumi-terraform-bridge/v3/pkg/pf/tfgen"
	"github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfbridge"
	"github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfbridge/tokens"
	"github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfgen"
	shimv2 "github.com/pulumi/pulumi-terraform-bridge/v3/pkg/tfshim/sdk-v2"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag/colors"

	"github.com/terrane/terrane/internal/testproviders/tpf"
	"github.com/terrane/terrane/internal/testproviders/tpsdk"
)

// Version is the version both bridged packages report.
const Version = "0.1.0"

// TPF is the bridge's description of tpf as the Pulumi package "tpf":
// every tpf_* resource and data source becomes a token of module index
// (tpf_thing: tpf:index/thing:Thing).
func TPF(ctx context.Context) tfbridge.ProviderInfo {
	info := tfbridge.ProviderInfo{
		P:            pftfbridge.ShimProviderWithContext(ctx, tpf.New(tpf.Protocol6, Version)()),
		Name:         "tpf",
		Version:      Version,
		MetadataInfo: &tfbridge.MetadataInfo{},
	}
	info.MustComputeTokens(tokens.SingleModule("tpf_", "index", tokens.MakeStandard("tpf")))
	return info
}

// TPSDK is the bridge's description of tpsdk as the Pulumi package "tpsdk"
// (tpsdk_widget: tpsdk:index/widget:Widget).
func TPSDK() tfbridge.ProviderInfo {
	info := tfbridge.ProviderInfo{
		P:            shimv2.NewProvider(tpsdk.New()),
		Name:         "tpsdk",
		Version:      Version,
		MetadataInfo: &tfbridge.MetadataInfo{},
	}
	info.MustComputeTokens(tokens.SingleModule("tpsdk_", "index", tokens.MakeStandard("tpsdk")))
	return info
}

// ServeTPF serves the framework provider through the bridge until the
// engine closes the connection.
func ServeTPF(ctx context.Context) error {
	info := TPF(ctx)
	generated, err := pftfgen.GenerateSchema(ctx, pftfgen.GenerateSchemaOptions{
		ProviderInfo: info, DiagnosticsSink: quietSink(), XInMemoryDocs: true,
	})
	if err != nil {
		return err
	}
	pftfbridge.Main(ctx, info.Name, info, generated.ProviderMetadata)
	return nil
}

// ServeTPSDK serves the SDKv2 provider through the bridge.
func ServeTPSDK() error {
	info := TPSDK()
	generated, err := tfgen.GenerateSchemaWithOptions(tfgen.GenerateSchemaOptions{
		ProviderInfo: info, DiagnosticsSink: quietSink(), XInMemoryDocs: true,
	})
	if err != nil {
		return err
	}
	schema, err := json.Marshal(generated.PackageSpec)
	if err != nil {
		return err
	}
	tfbridge.Main(info.Name, info.Version, info, schema)
	return nil
}

// quietSink drops the generator's notes (missing docs and the like): the
// provider's stdout carries its port, and nothing else may be printed.
func quietSink() diag.Sink {
	return diag.DefaultSink(io.Discard, io.Discard, diag.FormatOptions{Color: colors.Never})
}
