package remote_test

import (
	"github.com/terrane/terrane/proto/pbresource"
	"net"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/internal/store/remote"
	"github.com/terrane/terrane/internal/store/storetest"
)

// serve runs `terrane serve`'s gRPC services over a fresh memory backend on
// a loopback listener and returns its address.
func serve(t *testing.T, tokens []string) string {
	t.Helper()
	served := memory.New()
	t.Cleanup(func() { _ = served.Close() })
	parsed, err := resourceservice.ParseTokens(tokens)
	if err != nil {
		t.Fatal(err)
	}
	server := resourceservice.NewGRPCServer(resourceservice.New(served, resourceservice.NewRegistry()), parsed, nil)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = server.Serve(listener) }()
	t.Cleanup(server.Stop)
	return listener.Addr().String()
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Backend {
		backend, err := remote.Dial(remote.Config{Address: serve(t, []string{"s3cret"}), Token: "s3cret"})
		if err != nil {
			t.Fatal(err)
		}
		return backend
	})
}

func TestRejectedTokenIsReported(t *testing.T) {
	addr := serve(t, []string{"s3cret"})
	for _, token := range []string{"", "wrong"} {
		backend, err := remote.Dial(remote.Config{Address: addr, Token: token})
		if err != nil {
			t.Fatal(err)
		}
		_, err = backend.List(t.Context(), store.StrongConsistency, storeType, nil, "")
		if err == nil || !strings.Contains(err.Error(), addr) {
			t.Errorf("token %q: List gave %v, want an error naming the endpoint", token, err)
		}
		_ = backend.Close()
	}
}

var storeType = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"}

// TestReadManyChecksEveryTenancy reads many resources in one round trip
// only within the token's tenancy.
func TestReadManyChecksEveryTenancy(t *testing.T) {
	addr := serve(t, []string{"scoped@proj/prod"})
	backend, err := remote.Dial(remote.Config{Address: addr, Token: "scoped"})
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	id := func(namespace string) *pbresource.ID {
		return &pbresource.ID{Type: storeType, Tenancy: &pbresource.Tenancy{Partition: "proj", Namespace: namespace}, Name: "x"}
	}
	found, err := backend.ReadMany(t.Context(), store.StrongConsistency, []*pbresource.ID{id("prod"), id("prod")})
	if err != nil || len(found) != 2 || found[0] != nil {
		t.Fatalf("ReadMany within the token's tenancy: %v %v", found, err)
	}
	if _, err := backend.ReadMany(t.Context(), store.StrongConsistency, []*pbresource.ID{id("prod"), id("staging")}); err == nil || !strings.Contains(err.Error(), "proj/staging") {
		t.Errorf("ReadMany of another tenancy: %v, want a refusal naming it", err)
	}
}
