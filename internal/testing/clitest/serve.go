package clitest

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store/remote"
	"github.com/terrane/terrane/proto/pbresource"
)

// RemoteService returns a resource service that keeps its records in the
// serve endpoint at addr, as a client of a remote store runs one.
func RemoteService(t testing.TB, addr, token string) (*resourceservice.Service, *remote.Backend) {
	t.Helper()
	backend, err := remote.Dial(remote.Config{Address: addr, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = backend.Close() })
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	return resourceservice.New(backend, registry), backend
}

// WriteRecord writes a record of data with an owner through service.
func WriteRecord(t testing.TB, service *resourceservice.Service, id, owner *pbresource.ID, data proto.Message) *pbresource.Resource {
	t.Helper()
	packed, err := anypb.New(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := service.Write(t.Context(), &pbresource.Resource{Id: id, Owner: owner, Data: packed})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// WatchClient opens WatchList streams on one connection to a serve
// endpoint with a token.
type WatchClient struct {
	t      testing.TB
	Conn   *grpc.ClientConn
	client pbresource.ResourceServiceClient
	token  string
}

// DialWatchClient connects to the serve endpoint at addr, without TLS,
// until the test ends.
func DialWatchClient(t testing.TB, addr, token string) *WatchClient {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &WatchClient{t: t, Conn: conn, client: pbresource.NewResourceServiceClient(conn), token: token}
}

// Open starts a watch of every workspace record and reads its snapshot;
// it returns the stream's cancel function, or the error the server gave.
func (c *WatchClient) Open() (context.CancelFunc, error) {
	ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(c.t.Context(), resourceservice.TokenMetadataKey, c.token))
	stream, err := c.client.WatchList(ctx, &pbresource.WatchListRequest{Type: records.WorkspaceType, Tenancy: &pbresource.Tenancy{Partition: "*", Namespace: "*"}})
	if err != nil {
		cancel()
		return nil, err
	}
	for {
		event, err := stream.Recv()
		if err != nil {
			cancel()
			return nil, err
		}
		if event.GetEndOfSnapshot() != nil {
			return cancel, nil
		}
	}
}
