package pulumi

import (
	"context"
	"encoding/json"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// pairToken is the component resource: two Things named after a prefix.
const (
	pairToken     = "tpulumi:index:Pair"
	thingToken    = "tpulumi:index:Thing"
	describeToken = "tpulumi:index:Pair/describe"
)

// pairSchema is Pair's entry in the package schema, with its method.
const pairSchema = `{
  "isComponent": true,
  "description": "Two Things, PREFIX-left and PREFIX-right (or rightName), made with Construct.",
  "inputProperties": {
    "prefix": {"type": "string"},
    "leftContent": {"type": "string"},
    "rightContent": {"type": "string"},
    "rightName": {"type": "string"},
    "rightFail": {"type": "string"},
    "leftOptions": {"type": "string", "description": "replaceOnContent or ignoreContent: the left child's registration option."},
    "dropRight": {"type": "boolean"},
    "foreignChild": {"type": "boolean"}
  },
  "requiredInputs": ["prefix"],
  "properties": {
    "leftId": {"type": "string"},
    "rightId": {"type": "string"},
    "leftLength": {"type": "integer"},
    "leftApiKey": {"type": "string", "description": "The left child's apiKey: a secret the schema does not declare."}
  },
  "required": ["leftId", "leftLength"],
  "methods": {"describe": "tpulumi:index:Pair/describe"}
}`

// describeSchema is the method's function: __self__ is the component.
const describeSchema = `{
  "description": "Describes the pair: its name, then separator, then its prefix.",
  "inputs": {
    "properties": {
      "__self__": {"$ref": "#/resources/tpulumi:index:Pair"},
      "separator": {"type": "string"}
    },
    "required": ["__self__"]
  },
  "outputs": {
    "properties": {"result": {"type": "string"}},
    "required": ["result"]
  }
}`

// withPair adds the components Pair, with its method, and Duo to a
// package schema.
func withPair(schema string) string {
	var spec map[string]any
	if err := json.Unmarshal([]byte(schema), &spec); err != nil {
		panic("tpulumi: the built-in package schema is not JSON: " + err.Error())
	}
	var pair, describe any
	_ = json.Unmarshal([]byte(pairSchema), &pair)
	_ = json.Unmarshal([]byte(describeSchema), &describe)
	spec["resources"].(map[string]any)[pairToken] = pair
	spec["functions"].(map[string]any)[describeToken] = describe
	out, _ := json.MarshalIndent(spec, "", "  ")
	return withDuo(string(out))
}

// Construct builds a Pair the way an SDK-built component provider does:
// it registers the component with the engine's resource monitor, then a
// Thing for each side as its children, then the component's outputs.
func (p *Provider) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	switch req.GetType() {
	case duoToken:
		return p.constructDuo(ctx, req)
	case pairToken:
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown component type %q", req.GetType())
	}
	inputs, err := unmarshal(req.GetInputs())
	if err != nil {
		return nil, err
	}
	conn, err := grpc.NewClient(req.GetMonitorEndpoint(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	monitor := pulumirpc.NewResourceMonitorClient(conn)
	self, err := monitor.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: pairToken, Name: req.GetName(), Parent: req.GetParent()})
	if err != nil {
		return nil, err
	}
	prefix := inputs["prefix"]
	left, err := registerThing(ctx, monitor, leftOptions(inputs, &pulumirpc.RegisterResourceRequest{Parent: self.GetUrn(), Name: req.GetName() + "-left"}), resource.PropertyMap{
		"name": suffixed(prefix, "-left"), "content": inputs["leftContent"],
	})
	if err != nil {
		return nil, err
	}
	if v := inputs["foreignChild"]; v.IsBool() && v.BoolValue() {
		_, err := monitor.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "other:index:Widget", Name: req.GetName() + "-widget", Parent: self.GetUrn(), Custom: true})
		if err != nil {
			return nil, err
		}
	}
	outputs := resource.PropertyMap{"leftId": idProperty(left), "leftLength": left["contentLength"], "leftApiKey": left["apiKey"]}
	if v := inputs["dropRight"]; !v.IsBool() || !v.BoolValue() {
		rightName := suffixed(prefix, "-right")
		if v := inputs["rightName"]; v.IsString() || v.IsComputed() {
			rightName = v
		}
		right, err := registerThing(ctx, monitor, &pulumirpc.RegisterResourceRequest{Parent: self.GetUrn(), Name: req.GetName() + "-right"}, resource.PropertyMap{
			"name": rightName, "content": inputs["rightContent"], "fail": inputs["rightFail"],
		})
		if err != nil {
			return nil, err
		}
		outputs["rightId"] = idProperty(right)
	}
	state, err := marshal(outputs)
	if err != nil {
		return nil, err
	}
	if _, err := monitor.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: self.GetUrn(), Outputs: state}); err != nil {
		return nil, err
	}
	return &pulumirpc.ConstructResponse{Urn: self.GetUrn(), State: state}, nil
}

// leftOptions sets the left child's registration options from the
// leftOptions input.
func leftOptions(inputs resource.PropertyMap, req *pulumirpc.RegisterResourceRequest) *pulumirpc.RegisterResourceRequest {
	switch v := inputs["leftOptions"]; {
	case v.IsString() && v.StringValue() == "replaceOnContent":
		req.ReplaceOnChanges = []string{"content"}
	case v.IsString() && v.StringValue() == "ignoreContent":
		req.IgnoreChanges = []string{"content"}
	}
	return req
}

// registerThing registers one child Thing (req names it and its parent and
// carries its options) and returns its outputs with its ID under "id"
// (unknown in a preview of a new thing).
func registerThing(ctx context.Context, monitor pulumirpc.ResourceMonitorClient, req *pulumirpc.RegisterResourceRequest, props resource.PropertyMap) (resource.PropertyMap, error) {
	for key, v := range props {
		if v.IsNull() {
			delete(props, key)
		}
	}
	object, err := marshal(props)
	if err != nil {
		return nil, err
	}
	req.Type, req.Custom, req.Object, req.AcceptSecrets = thingToken, true, object, true
	resp, err := monitor.RegisterResource(ctx, req)
	if err != nil {
		return nil, err
	}
	out, err := unmarshal(resp.GetObject())
	if err != nil {
		return nil, err
	}
	out["id"] = resource.NewStringProperty(resp.GetId())
	return out, nil
}

// suffixed appends suffix to a string property; unknown stays unknown.
func suffixed(prefix resource.PropertyValue, suffix string) resource.PropertyValue {
	if !prefix.IsString() {
		return resource.MakeComputed(resource.NewStringProperty(""))
	}
	return resource.NewStringProperty(prefix.StringValue() + suffix)
}

// idProperty is a registered thing's ID, unknown while it has none.
func idProperty(thing resource.PropertyMap) resource.PropertyValue {
	if id := thing["id"]; id.IsString() && id.StringValue() != "" {
		return id
	}
	return resource.MakeComputed(resource.NewStringProperty(""))
}

// Call serves Pair's method describe: the component's URN name, the
// separator (default " "), and the prefix the caller passes back.
func (p *Provider) Call(ctx context.Context, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error) {
	switch req.GetTok() {
	case duoShoutToken:
		return p.callDuoShout(ctx, req)
	case describeToken:
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown method %q", req.GetTok())
	}
	args, err := plugin.UnmarshalProperties(req.GetArgs(), plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true})
	if err != nil {
		return nil, err
	}
	self := args["__self__"]
	if !self.IsResourceReference() {
		return &pulumirpc.CallResponse{Failures: []*pulumirpc.CheckFailure{{Property: "__self__", Reason: "__self__ must be a resource reference to a Pair"}}}, nil
	}
	separator := " "
	if v := args["separator"]; v.IsString() {
		separator = v.StringValue()
	}
	ref := self.ResourceReferenceValue()
	ret, err := marshal(resource.PropertyMap{"result": resource.NewStringProperty(ref.URN.Name() + separator + string(ref.URN.Type()))})
	return &pulumirpc.CallResponse{Return: ret}, err
}
