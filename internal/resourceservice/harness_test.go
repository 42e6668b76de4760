package resourceservice_test

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/proto/pbresource"
)

var (
	// albumType owns trackType resources; deleting an album with tracks
	// is refused unless forced, like a workspace owning instances.
	albumType = &pbresource.Type{Group: "music", GroupVersion: "v1", Kind: "Album"}
	// artistType owns albums and may own other artists.
	artistType = &pbresource.Type{Group: "music", GroupVersion: "v1", Kind: "Artist"}
	// trackType is a leaf whose data must be a StringValue; its mutate hook
	// fills an empty title and its validate hook rejects "invalid".
	trackType = &pbresource.Type{Group: "music", GroupVersion: "v1", Kind: "Track"}
)

func testRegistry(t *testing.T) *resourceservice.Registry {
	t.Helper()
	registry := resourceservice.NewRegistry()
	regs := []resourceservice.Registration{
		{Type: artistType},
		{Type: albumType, GuardDelete: func(_ *pbresource.Resource, owned []*pbresource.Resource) error {
			if len(owned) > 0 {
				return errors.New("the album still has tracks; delete them or force")
			}
			return nil
		}},
		{Type: trackType, Data: &wrapperspb.StringValue{}, Leaf: true,
			Mutate: func(res *pbresource.Resource) error {
				var title wrapperspb.StringValue
				if err := res.GetData().UnmarshalTo(&title); err != nil {
					return err
				}
				if title.GetValue() == "" {
					return res.GetData().MarshalFrom(wrapperspb.String("untitled"))
				}
				return nil
			},
			Validate: func(res *pbresource.Resource) error {
				var title wrapperspb.StringValue
				_ = res.GetData().UnmarshalTo(&title)
				if title.GetValue() == "invalid" {
					return errors.New(`title "invalid" is not allowed`)
				}
				return nil
			}},
	}
	for _, reg := range regs {
		if err := registry.Register(reg); err != nil {
			t.Fatal(err)
		}
	}
	return registry
}

// fixture is a service on a memory backend served over gRPC on loopback.
type fixture struct {
	service *resourceservice.Service
	client  pbresource.ResourceServiceClient
	conn    *grpc.ClientConn
	addr    string
}

type fixtureOptions struct {
	tokens    []string
	serverTLS *tls.Config
	clientTLS *tls.Config
	noReaper  bool
}

func newFixture(t *testing.T, opts fixtureOptions) *fixture {
	t.Helper()
	backend := memory.New()
	t.Cleanup(func() { _ = backend.Close() })
	service := resourceservice.New(backend, testRegistry(t))
	tokens, err := resourceservice.ParseTokens(opts.tokens)
	if err != nil {
		t.Fatal(err)
	}
	server := resourceservice.NewGRPCServer(service, tokens, resourceservice.ServerOptions{TLS: opts.serverTLS})
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	if !opts.noReaper {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		reaper := &resourceservice.Reaper{Service: service, RetryInterval: 50 * time.Millisecond, Logf: t.Logf}
		go func() { defer close(done); _ = reaper.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
	}
	creds := insecure.NewCredentials()
	if opts.clientTLS != nil {
		creds = credentials.NewTLS(opts.clientTLS)
	}
	conn, err := grpc.NewClient(listener.Addr().String(), grpc.WithTransportCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &fixture{service: service, client: pbresource.NewResourceServiceClient(conn), conn: conn, addr: listener.Addr().String()}
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func withToken(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, resourceservice.TokenMetadataKey, token)
}

var projectTenancy = &pbresource.Tenancy{Partition: "proj", Namespace: "prod"}

func newID(resType *pbresource.Type, name string) *pbresource.ID {
	return &pbresource.ID{Type: resType, Tenancy: projectTenancy, Name: name}
}

func newResource(t *testing.T, id *pbresource.ID, title string) *pbresource.Resource {
	t.Helper()
	data, err := anypb.New(wrapperspb.String(title))
	if err != nil {
		t.Fatal(err)
	}
	return &pbresource.Resource{Id: id, Data: data}
}

func titleOf(t *testing.T, res *pbresource.Resource) string {
	t.Helper()
	var title wrapperspb.StringValue
	if err := res.GetData().UnmarshalTo(&title); err != nil {
		t.Fatalf("data of %s: %v", res.GetId().GetName(), err)
	}
	return title.GetValue()
}

func (f *fixture) write(t *testing.T, res *pbresource.Resource) *pbresource.Resource {
	t.Helper()
	resp, err := f.client.Write(ctxFor(t), &pbresource.WriteRequest{Resource: res})
	if err != nil {
		t.Fatalf("writing %s: %v", res.GetId().GetName(), err)
	}
	return resp.GetResource()
}

func (f *fixture) read(t *testing.T, id *pbresource.ID) (*pbresource.Resource, error) {
	t.Helper()
	resp, err := f.client.Read(ctxFor(t), &pbresource.ReadRequest{Id: id})
	return resp.GetResource(), err
}

func expectCode(t *testing.T, what string, err error, want codes.Code) {
	t.Helper()
	if got := status.Code(err); got != want {
		t.Fatalf("%s: got code %v (%v), want %v", what, got, err, want)
	}
}

// eventually polls check until it returns nil or the deadline passes.
func eventually(t *testing.T, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
