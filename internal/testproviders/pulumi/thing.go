package pulumi

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// inputNames are Thing's inputs, compared by Diff.
var inputNames = []resource.PropertyKey{"name", "content", "sizeClass", "nonce", "tags", "ports", "password", "settings", "fail", "source"}

func failSwitch(m resource.PropertyMap) string {
	if v := m["fail"]; v.IsString() {
		return v.StringValue()
	}
	return ""
}

// Diff compares inputs and answers with a detailed diff; a new name
// replaces the thing.
func (p *Provider) Diff(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, err := unmarshal(req.GetOlds())
	if err != nil {
		return nil, err
	}
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	resp := &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE, HasDetailedDiff: true, DetailedDiff: map[string]*pulumirpc.PropertyDiff{}}
	for _, key := range inputNames {
		oldValue, hadOld := olds[key]
		newValue, hasNew := news[key]
		if hadOld == hasNew && (!hasNew || oldValue.DeepEquals(newValue)) {
			continue
		}
		kind := pulumirpc.PropertyDiff_UPDATE
		switch {
		case !hadOld:
			kind = pulumirpc.PropertyDiff_ADD
		case !hasNew:
			kind = pulumirpc.PropertyDiff_DELETE
		}
		if key == "name" {
			// Names are unique in the cloud, so the old thing must go first.
			kind = pulumirpc.PropertyDiff_UPDATE_REPLACE
			resp.Replaces = append(resp.Replaces, string(key))
			resp.DeleteBeforeReplace = true
		}
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
		resp.Diffs = append(resp.Diffs, string(key))
		resp.DetailedDiff[string(key)] = &pulumirpc.PropertyDiff{Kind: kind, InputDiff: true}
	}
	return resp, nil
}

// outputs derives a thing's outputs from its inputs; unknown inputs make
// the derived outputs unknown (previews).
func outputs(inputs resource.PropertyMap, revision float64, createdAt string) resource.PropertyMap {
	out := inputs.Copy()
	out["revision"] = resource.NewNumberProperty(revision)
	out["createdAt"] = resource.NewStringProperty(createdAt)
	content := inputs["content"]
	switch {
	case content.ContainsUnknowns():
		out["contentLength"] = resource.MakeComputed(resource.NewNumberProperty(0))
	case content.IsString():
		out["contentLength"] = resource.NewNumberProperty(float64(len(content.StringValue())))
	default:
		out["contentLength"] = resource.NewNumberProperty(0)
	}
	if createdAt == "" {
		out["createdAt"] = resource.MakeComputed(resource.NewStringProperty(""))
	}
	if v, ok := out["password"]; ok && !v.IsSecret() && !v.IsNull() {
		out["password"] = resource.MakeSecret(v)
	}
	// apiKey is secret though the schema does not say so, as providers
	// decide secrets at run time; it travels as a secret output value.
	if name := inputs["name"]; name.IsString() {
		out["apiKey"] = resource.NewOutputProperty(resource.Output{Element: resource.NewStringProperty("key-" + name.StringValue()), Known: true, Secret: true})
	}
	if v, ok := out["source"]; ok && v.IsAsset() {
		// The stored asset carries its hash, as a real provider reports it.
		a := *v.AssetValue()
		if err := a.EnsureHash(); err == nil {
			out["source"] = resource.NewAssetProperty(&a)
		}
	}
	return out
}

func (p *Provider) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	inputs, err := unmarshal(req.GetProperties())
	if err != nil {
		return nil, err
	}
	if req.GetPreview() {
		props, err := marshal(outputs(inputs, 1, ""))
		return &pulumirpc.CreateResponse{Properties: props}, err
	}
	switch failSwitch(inputs) {
	case "create":
		return nil, status.Error(codes.Unknown, "create failure requested")
	case "hang":
		return nil, p.hang(ctx)
	}
	store, err := p.store()
	if err != nil {
		return nil, err
	}
	id := cloud.NewID()
	out := outputs(inputs, 1, time.Now().UTC().Format(time.RFC3339))
	if err := put(store, kindOf(req.GetType()), id, out); err != nil {
		return nil, err
	}
	p.log(ctx, req.GetUrn(), "created thing "+id)
	props, err := marshal(out)
	if err != nil {
		return nil, err
	}
	if failSwitch(inputs) == "partial" {
		return nil, rpcerror.WithDetails(rpcerror.New(codes.Unknown, "thing created but failed to initialise"),
			&pulumirpc.ErrorResourceInitFailed{Id: id, Properties: props, Inputs: req.GetProperties(), Reasons: []string{"initialisation failure requested"}})
	}
	return &pulumirpc.CreateResponse{Id: id, Properties: props}, nil
}

// hang blocks until the call or the whole provider is cancelled.
func (p *Provider) hang(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return status.Error(codes.Canceled, "create abandoned")
	case <-p.cancelled:
		return status.Error(codes.Canceled, "create cancelled by the engine")
	}
}

func (p *Provider) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	olds, err := unmarshal(req.GetOlds())
	if err != nil {
		return nil, err
	}
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	revision := 1.0
	if v := olds["revision"]; v.IsNumber() {
		revision = v.NumberValue() + 1
	}
	createdAt := ""
	if v := olds["createdAt"]; v.IsString() {
		createdAt = v.StringValue()
	}
	if req.GetPreview() {
		out := outputs(news, revision, createdAt)
		out["revision"] = resource.MakeComputed(resource.NewNumberProperty(0))
		props, err := marshal(out)
		return &pulumirpc.UpdateResponse{Properties: props}, err
	}
	if failSwitch(olds) == "update" || failSwitch(news) == "update" {
		return nil, status.Error(codes.Unknown, "update failure requested")
	}
	store, err := p.store()
	if err != nil {
		return nil, err
	}
	out := outputs(news, revision, createdAt)
	if err := put(store, kindOf(req.GetType()), req.GetId(), out); err != nil {
		return nil, err
	}
	if ignored := req.GetIgnoreChanges(); len(ignored) > 0 {
		// Recorded for tests: what the engine said to ignore.
		if err := store.Put(ignoreChangesKind, req.GetId(), map[string]any{"ignoreChanges": ignored}); err != nil {
			return nil, err
		}
	}
	props, err := marshal(out)
	return &pulumirpc.UpdateResponse{Properties: props}, err
}

// ignoreChangesKind is where Update records the ignoreChanges it was sent,
// ROOT/tpulumi_ignore_changes/<id>.json.
const ignoreChangesKind = "tpulumi_ignore_changes"

func (p *Provider) Read(ctx context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	store, err := p.store()
	if err != nil {
		return nil, err
	}
	stored, err := get(store, kindOf(req.GetType()), req.GetId())
	if errors.Is(err, cloud.ErrNotFound) {
		return &pulumirpc.ReadResponse{}, nil
	}
	if err != nil {
		return nil, err
	}
	if failSwitch(stored) == "read" {
		return nil, status.Error(codes.Unknown, "read failure requested")
	}
	inputs := resource.PropertyMap{}
	for _, key := range inputNames {
		if v, ok := stored[key]; ok {
			inputs[key] = v
		}
	}
	props, err := marshal(stored)
	if err != nil {
		return nil, err
	}
	inputProps, err := marshal(inputs)
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: props, Inputs: inputProps}, err
}

func (p *Provider) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	store, err := p.store()
	if err != nil {
		return nil, err
	}
	if stored, err := get(store, kindOf(req.GetType()), req.GetId()); err == nil && failSwitch(stored) == "delete" {
		return nil, status.Error(codes.Unknown, "delete failure requested")
	}
	return &emptypb.Empty{}, store.Delete(kindOf(req.GetType()), req.GetId())
}

// Invoke serves getThing (getGadget in a sub-package).
func (p *Provider) Invoke(ctx context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	pkg, member, ok := splitToken(req.GetTok())
	if ok && member == "listThings" {
		return p.invokeListThings(req)
	}
	if !ok || (member != "getThing" && member != "getGadget") {
		return nil, status.Errorf(codes.NotFound, "unknown function %q", req.GetTok())
	}
	kind := kindOf(pkg + ":index:" + strings.TrimPrefix(member, "get"))
	args, err := unmarshal(req.GetArgs())
	if err != nil {
		return nil, err
	}
	if keys := secretKeys(args); len(keys) > 0 {
		p.log(ctx, "", "invoke received secrets for "+strings.Join(keys, ", "))
		// The function itself works on the plain values.
		if args, err = plugin.UnmarshalProperties(req.GetArgs(), plugin.MarshalOptions{KeepUnknowns: true, SkipNulls: true}); err != nil {
			return nil, err
		}
	}
	id := args["id"]
	if !id.IsString() {
		return &pulumirpc.InvokeResponse{Failures: []*pulumirpc.CheckFailure{{Property: "id", Reason: "id must be a string"}}}, nil
	}
	store, err := p.store()
	if err != nil {
		return nil, err
	}
	stored, err := get(store, kind, id.StringValue())
	if err != nil {
		return nil, status.Errorf(codes.NotFound, "no thing %q: %v", id.StringValue(), err)
	}
	ret, err := marshal(resource.PropertyMap{"name": stored["name"], "content": stored["content"], "sizeClass": stored["sizeClass"]})
	return &pulumirpc.InvokeResponse{Return: ret}, err
}

// invokeListThings answers listThings without streaming: the first match.
func (p *Provider) invokeListThings(req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	args, err := unmarshal(req.GetArgs())
	if err != nil {
		return nil, err
	}
	things, err := p.listThings(args)
	if err != nil || len(things) == 0 {
		return &pulumirpc.InvokeResponse{Return: nil}, err
	}
	ret, err := marshal(things[0])
	return &pulumirpc.InvokeResponse{Return: ret}, err
}

// put stores a thing without secret wrappers (the file is the "cloud").
func put(store *cloud.Cloud, kind, id string, props resource.PropertyMap) error {
	plain, err := plugin.MarshalProperties(props, plugin.MarshalOptions{SkipNulls: true})
	if err != nil {
		return err
	}
	return store.Put(kind, id, plain.AsMap())
}

func get(store *cloud.Cloud, kind, id string) (resource.PropertyMap, error) {
	raw, err := store.GetRaw(kind, id)
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	s, err := structpb.NewStruct(fields)
	if err != nil {
		return nil, err
	}
	props, err := unmarshal(s)
	for _, key := range []resource.PropertyKey{"password", "apiKey"} {
		if v, ok := props[key]; ok && err == nil && !v.IsNull() {
			props[key] = resource.MakeSecret(v)
		}
	}
	return props, err
}
