package pulumi

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	pulumiprovider "github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// Name is the package name; Version its version.
const (
	Name    = "tpulumi"
	Version = "0.1.0"
)

// kindOf is the cloud directory of a resource type's objects:
// "tpulumi:index:Thing" is stored under tpulumi_thing, a sub-package's
// "widgets:index:Gadget" under widgets_gadget. Hosts that send no type get
// tpulumi_thing.
func kindOf(typeToken string) string {
	pkg, member, ok := splitToken(typeToken)
	if !ok {
		return "tpulumi_thing"
	}
	return strings.ToLower(pkg + "_" + member)
}

func splitToken(token string) (pkg, member string, ok bool) {
	parts := strings.Split(token, ":")
	if len(parts) != 3 {
		return "", "", false
	}
	return parts[0], parts[2], true
}

// Serve runs the provider the way every Pulumi provider runs: the engine
// address is the only argument and the port goes to stdout.
func Serve() error {
	if os.Getenv("TPULUMI_EXIT_EARLY") == "1" {
		fmt.Fprintln(os.Stderr, "tpulumi: exiting before printing a port, as asked by TPULUMI_EXIT_EARLY")
		os.Exit(2)
	}
	if os.Getenv("TPULUMI_BAD_PORT") == "1" {
		fmt.Println("listening on a port of my choosing")
		fmt.Fprintln(os.Stderr, "tpulumi: refusing to print a port, as asked by TPULUMI_BAD_PORT")
		os.Exit(3)
	}
	return serve()
}

// Provider is the tpulumi resource provider.
type Provider struct {
	pulumirpc.UnimplementedResourceProviderServer
	host *pulumiprovider.HostClient

	mu         sync.Mutex
	cloud      *cloud.Cloud
	subpackage string // the name Parameterize chose, if it was called
	cancelled  chan struct{}
	cancel     sync.Once
}

// New returns a provider that logs through host (nil when run without an
// engine).
func New(host *pulumiprovider.HostClient) *Provider {
	return &Provider{host: host, cancelled: make(chan struct{})}
}

// Inputs are read with output values flattened to plain, unknown or
// secret values; answers keep output values, which hosts must accept.
var (
	unmarshalOptions = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, SkipNulls: true}
	marshalOptions   = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, SkipNulls: true, KeepOutputValues: true}
)

func unmarshal(s *structpb.Struct) (resource.PropertyMap, error) {
	return plugin.UnmarshalProperties(s, unmarshalOptions)
}

func marshal(m resource.PropertyMap) (*structpb.Struct, error) {
	return plugin.MarshalProperties(m, marshalOptions)
}

// secretKeys lists the inputs that arrived as secrets.
func secretKeys(props resource.PropertyMap) []string {
	var keys []string
	for _, key := range props.StableKeys() {
		if props[key].ContainsSecrets() {
			keys = append(keys, string(key))
		}
	}
	return keys
}

// outputValueKeys lists the inputs that arrived as output values, which
// hosts send only to providers that accept outputs.
func outputValueKeys(s *structpb.Struct) []string {
	props, err := plugin.UnmarshalProperties(s, plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepOutputValues: true})
	if err != nil {
		return nil
	}
	var keys []string
	for _, key := range props.StableKeys() {
		if props[key].IsOutput() {
			keys = append(keys, string(key))
		}
	}
	return keys
}

func (p *Provider) Handshake(ctx context.Context, req *pulumirpc.ProviderHandshakeRequest) (*pulumirpc.ProviderHandshakeResponse, error) {
	if os.Getenv("TPULUMI_NO_HANDSHAKE") == "1" {
		return nil, status.Error(codes.Unimplemented, "Handshake is not implemented")
	}
	return &pulumirpc.ProviderHandshakeResponse{AcceptSecrets: true, AcceptOutputs: true}, nil
}

func (p *Provider) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: Version}, nil
}

// GetSchema answers with the base package's schema, or with the
// sub-package's when the request names the one Parameterize chose.
func (p *Provider) GetSchema(ctx context.Context, req *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	if name := req.GetSubpackageName(); name != "" && name != Name {
		p.mu.Lock()
		chosen := p.subpackage
		p.mu.Unlock()
		if name != chosen {
			return nil, status.Errorf(codes.InvalidArgument, "sub-package %q was not chosen by Parameterize (chosen: %q)", name, chosen)
		}
		return &pulumirpc.GetSchemaResponse{Schema: subpackageSchema(name)}, nil
	}
	return &pulumirpc.GetSchemaResponse{Schema: withPair(withClassicThing(packageSchema))}, nil
}

func (p *Provider) Attach(context.Context, *pulumirpc.PluginAttach) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

// Cancel makes every call blocked by the "hang" switch return.
func (p *Provider) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	p.cancel.Do(func() { close(p.cancelled) })
	return &emptypb.Empty{}, nil
}

func (p *Provider) CheckConfig(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	var failures []*pulumirpc.CheckFailure
	if v, ok := news["rootDir"]; ok && !v.IsString() && !v.IsComputed() && !v.IsNull() {
		failures = append(failures, &pulumirpc.CheckFailure{Property: "rootDir", Reason: "rootDir must be a string"})
	}
	return &pulumirpc.CheckResponse{Inputs: req.GetNews(), Failures: failures}, nil
}

func (p *Provider) DiffConfig(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_UNKNOWN}, nil
}

func (p *Provider) Configure(ctx context.Context, req *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	args, err := unmarshal(req.GetArgs())
	if err != nil {
		return nil, err
	}
	if v := args["failConfigure"]; v.IsString() && v.StringValue() == "missing-keys" {
		// As Pulumi providers report required settings left unset: full
		// configuration keys, with what each is for.
		return nil, rpcerror.WithDetails(rpcerror.New(codes.InvalidArgument, "required configuration keys were missing"),
			&pulumirpc.ConfigureErrorMissingKeys{MissingKeys: []*pulumirpc.ConfigureErrorMissingKeys_MissingKey{
				{Name: "tpulumi:config:rootDir", Description: "the directory of the test cloud"},
				{Name: "tpulumi:apiToken", Description: "a token for the test cloud"},
			}})
	}
	if v := args["failConfigure"]; v.IsString() && v.StringValue() != "" {
		return nil, status.Error(codes.FailedPrecondition, v.StringValue())
	}
	root := ""
	if v := args["rootDir"]; v.IsString() {
		root = v.StringValue()
	}
	c, err := cloud.Open(root)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	p.mu.Lock()
	p.cloud = c
	p.mu.Unlock()
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true, AcceptOutputs: true}, nil
}

func (p *Provider) store() (*cloud.Cloud, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cloud == nil {
		return nil, status.Error(codes.FailedPrecondition, "provider not configured")
	}
	return p.cloud, nil
}

func (p *Provider) log(ctx context.Context, urn string, message string) {
	if p.host != nil {
		_ = p.host.Log(ctx, diag.Info, resource.URN(urn), message)
	}
}

// Check fills in defaults: sizeClass, and nonce from the random seed, so a
// host that does not keep the seed stable sees a different nonce.
func (p *Provider) Check(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	if keys := outputValueKeys(req.GetNews()); len(keys) > 0 {
		p.log(ctx, req.GetUrn(), "check received output values for "+strings.Join(keys, ", "))
	}
	if keys := secretKeys(news); len(keys) > 0 {
		p.log(ctx, req.GetUrn(), "check received secrets for "+strings.Join(keys, ", "))
	}
	var failures []*pulumirpc.CheckFailure
	if v := news["fail"]; v.IsString() && v.StringValue() == "check" {
		failures = append(failures, &pulumirpc.CheckFailure{Property: "fail", Reason: "check failure requested"})
	}
	if v, ok := news["name"]; !ok || v.IsNull() {
		failures = append(failures, &pulumirpc.CheckFailure{Property: "name", Reason: "missing required property 'name'"})
	}
	if _, ok := news["sizeClass"]; !ok {
		news["sizeClass"] = resource.NewStringProperty("small")
	}
	if _, ok := news["nonce"]; !ok && len(req.GetRandomSeed()) >= 4 {
		news["nonce"] = resource.NewStringProperty(hex.EncodeToString(req.GetRandomSeed()[:4]))
	}
	inputs, err := marshal(news)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: inputs, Failures: failures}, nil
}
