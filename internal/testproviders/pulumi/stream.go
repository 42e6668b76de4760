package pulumi

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumiprovider "github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The protocol's StreamInvoke is missing from the SDK's generated service,
// so the provider registers the service with it added, the way the
// protocol's .proto declares it: a server stream of InvokeResponse.

// serviceWithStreamInvoke is the ResourceProvider service plus StreamInvoke.
func serviceWithStreamInvoke() *grpc.ServiceDesc {
	desc := pulumirpc.ResourceProvider_ServiceDesc
	desc.Streams = append(slices.Clone(desc.Streams), grpc.StreamDesc{
		StreamName:    "StreamInvoke",
		ServerStreams: true,
		Handler: func(srv any, stream grpc.ServerStream) error {
			var req pulumirpc.InvokeRequest
			if err := stream.RecvMsg(&req); err != nil {
				return err
			}
			return srv.(*Provider).StreamInvoke(&req, stream)
		},
	})
	return &desc
}

// serve runs the provider as pulumiprovider.Main does (engine address as
// the argument, health checks on it, port on stdout), registering the
// service with StreamInvoke.
func serve() error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var host *pulumiprovider.HostClient
	switch len(os.Args) {
	case 1: // started by hand, to be attached
	case 2:
		var err error
		if host, err = pulumiprovider.NewHostClient(os.Args[1]); err != nil {
			return fmt.Errorf("connecting to the engine: %w", err)
		}
		if err := rpcutil.Healthcheck(ctx, os.Args[1], healthInterval(), cancel); err != nil {
			return err
		}
	default:
		return fmt.Errorf("usage: %s [ENGINE-ADDRESS]", os.Args[0])
	}
	stop := make(chan bool)
	go func() {
		<-ctx.Done()
		close(stop)
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			srv.RegisterService(serviceWithStreamInvoke(), New(host))
			return nil
		},
	})
	if err != nil {
		return err
	}
	fmt.Printf("%d\n", handle.Port)
	return <-handle.Done
}

// healthInterval is how often the provider checks the engine's health,
// as SDK-built providers do (every 5 minutes), or as TPULUMI_HEALTH_INTERVAL
// says, so tests can watch many checks pass.
func healthInterval() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("TPULUMI_HEALTH_INTERVAL")); err == nil && d > 0 {
		return d
	}
	return 5 * time.Minute
}

// listThings returns the things whose name starts with the prefix
// argument, in name order.
func (p *Provider) listThings(args resource.PropertyMap) ([]resource.PropertyMap, error) {
	prefix := ""
	if v := args["prefix"]; v.IsString() {
		prefix = v.StringValue()
	}
	store, err := p.store()
	if err != nil {
		return nil, err
	}
	ids, err := store.List("tpulumi_thing")
	if err != nil {
		return nil, err
	}
	var things []resource.PropertyMap
	for _, id := range ids {
		stored, err := get(store, "tpulumi_thing", id)
		if err != nil {
			return nil, err
		}
		if name := stored["name"]; name.IsString() && strings.HasPrefix(name.StringValue(), prefix) {
			things = append(things, resource.PropertyMap{"name": name, "content": stored["content"]})
		}
	}
	sort.Slice(things, func(i, j int) bool { return things[i]["name"].StringValue() < things[j]["name"].StringValue() })
	return things, nil
}

// StreamInvoke serves listThings: one answer per matching thing.
func (p *Provider) StreamInvoke(req *pulumirpc.InvokeRequest, stream grpc.ServerStream) error {
	if _, member, _ := splitToken(req.GetTok()); member != "listThings" {
		return status.Errorf(codes.Unimplemented, "function %q does not stream", req.GetTok())
	}
	args, err := unmarshal(req.GetArgs())
	if err != nil {
		return err
	}
	things, err := p.listThings(args)
	if err != nil {
		return err
	}
	for _, thing := range things {
		ret, err := marshal(thing)
		if err != nil {
			return err
		}
		if err := stream.SendMsg(&pulumirpc.InvokeResponse{Return: ret}); err != nil {
			return err
		}
	}
	return nil
}
