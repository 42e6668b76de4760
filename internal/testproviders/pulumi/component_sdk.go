package pulumi

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumiprovider "github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// duoToken is a component built with the Pulumi Go SDK's programming
// model (pulumiprovider.Construct and a pulumi.Context), as real component
// providers are, rather than with raw monitor calls like Pair.
const (
	duoToken      = "tpulumi:index:Duo"
	duoShoutToken = "tpulumi:index:Duo/shout"
)

const duoSchema = `{
  "isComponent": true,
  "description": "Two Things, PREFIX-first and PREFIX-second, made with the Go SDK's Construct.",
  "inputProperties": {
    "prefix": {"type": "string"},
    "content": {"type": "string"}
  },
  "requiredInputs": ["prefix"],
  "properties": {
    "firstLength": {"type": "integer"},
    "secondName": {"type": "string"}
  },
  "required": ["firstLength", "secondName"],
  "methods": {"shout": "tpulumi:index:Duo/shout"}
}`

// duoShoutSchema is Duo's method shout, served through the Go SDK's Call.
const duoShoutSchema = `{
  "inputs": {
    "properties": {
      "__self__": {"$ref": "#/resources/tpulumi:index:Duo"},
      "text": {"type": "string"}
    },
    "required": ["__self__", "text"]
  },
  "outputs": {
    "properties": {"shouted": {"type": "string"}},
    "required": ["shouted"]
  }
}`

// withDuo adds the Duo component and its method to a package schema.
func withDuo(schema string) string {
	var spec map[string]any
	if err := json.Unmarshal([]byte(schema), &spec); err != nil {
		panic("tpulumi: the built-in package schema is not JSON: " + err.Error())
	}
	var duo, shout any
	_ = json.Unmarshal([]byte(duoSchema), &duo)
	_ = json.Unmarshal([]byte(duoShoutSchema), &shout)
	spec["resources"].(map[string]any)[duoToken] = duo
	spec["functions"].(map[string]any)[duoShoutToken] = shout
	out, _ := json.MarshalIndent(spec, "", "  ")
	return string(out)
}

// sdkThing is a Thing as the SDK sees it: the outputs Duo reads.
type sdkThing struct {
	pulumi.CustomResourceState
	Name          pulumi.StringOutput `pulumi:"name"`
	ContentLength pulumi.IntOutput    `pulumi:"contentLength"`
}

// duo is the component's state: its outputs.
type duo struct {
	pulumi.ResourceState
	FirstLength pulumi.IntOutput    `pulumi:"firstLength"`
	SecondName  pulumi.StringOutput `pulumi:"secondName"`
}

type duoArgs struct {
	Prefix  pulumi.StringInput `pulumi:"prefix"`
	Content pulumi.StringInput `pulumi:"content"`
}

// constructDuo serves Construct for Duo through the Go SDK.
func (p *Provider) constructDuo(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	if p.host == nil {
		return nil, status.Error(codes.FailedPrecondition, "Duo needs the engine connection")
	}
	return pulumiprovider.Construct(ctx, req, p.host.EngineConn(), func(ctx *pulumi.Context, typ, name string, inputs pulumiprovider.ConstructInputs, options pulumi.ResourceOption) (*pulumiprovider.ConstructResult, error) {
		var args duoArgs
		if err := inputs.CopyTo(&args); err != nil {
			return nil, err
		}
		component := &duo{}
		if err := ctx.RegisterComponentResource(typ, name, component, options); err != nil {
			return nil, err
		}
		var first, second sdkThing
		content := pulumi.StringInput(pulumi.String(""))
		if args.Content != nil {
			content = args.Content
		}
		if err := ctx.RegisterResource(thingToken, name+"-first", pulumi.Map{"name": pulumi.Sprintf("%s-first", args.Prefix), "content": content}, &first, pulumi.Parent(component)); err != nil {
			return nil, err
		}
		if err := ctx.RegisterResource(thingToken, name+"-second", pulumi.Map{"name": pulumi.Sprintf("%s-second", args.Prefix)}, &second, pulumi.Parent(component)); err != nil {
			return nil, err
		}
		component.FirstLength, component.SecondName = first.ContentLength, second.Name
		if err := ctx.RegisterResourceOutputs(component, pulumi.Map{"firstLength": first.ContentLength, "secondName": second.Name}); err != nil {
			return nil, err
		}
		return pulumiprovider.NewConstructResult(component)
	})
}

type shoutArgs struct {
	Text pulumi.StringInput `pulumi:"text"`
}

type shoutResult struct {
	Shouted pulumi.StringOutput `pulumi:"shouted"`
}

// callDuoShout serves Duo's method shout through the Go SDK: the text in
// capitals, "from", and the __self__ component's URN.
func (p *Provider) callDuoShout(ctx context.Context, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error) {
	if p.host == nil {
		return nil, status.Error(codes.FailedPrecondition, "shout needs the engine connection")
	}
	return pulumiprovider.Call(ctx, req, p.host.EngineConn(), func(ctx *pulumi.Context, tok string, args pulumiprovider.CallArgs) (*pulumiprovider.CallResult, error) {
		var in shoutArgs
		self, err := args.CopyTo(&in)
		if err != nil {
			return nil, err
		}
		if self == nil {
			return nil, status.Error(codes.InvalidArgument, "shout needs __self__")
		}
		shouted := pulumi.All(self.URN(), in.Text).ApplyT(func(values []any) string {
			return strings.ToUpper(values[1].(string)) + " from " + string(values[0].(pulumi.URN))
		}).(pulumi.StringOutput)
		return pulumiprovider.NewCallResult(&shoutResult{Shouted: shouted})
	})
}
