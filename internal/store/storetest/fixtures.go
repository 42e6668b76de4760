package storetest

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

var (
	typeV1 = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"}
	typeV2 = &pbresource.Type{Group: "terrane", GroupVersion: "v2", Kind: "ResourceInstance"}
	// otherType differs from typeV1 only in Kind.
	otherType     = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "Output"}
	workspaceType = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "Workspace"}
)

func tenancy(partition, namespace string) *pbresource.Tenancy {
	return &pbresource.Tenancy{Partition: partition, Namespace: namespace}
}

var defaultTenancy = tenancy("proj", "default")

func id(resType *pbresource.Type, ten *pbresource.Tenancy, name string) *pbresource.ID {
	return &pbresource.ID{Type: resType, Tenancy: ten, Name: name, Uid: ulidOf("uid", name)}
}

// ulidOf is a ULID made from what: fixtures use ULIDs for Uids and
// Generations, as the resource service does, so that a backend that checks
// the service's rules on what it is sent (a remote store) passes too.
func ulidOf(kind, what string) string {
	sum := sha256.Sum256([]byte(kind + "\x00" + what))
	var id ulid.ULID
	copy(id[:], sum[:])
	return id.String()
}

// generationOf is the Generation a fixture gives content holding payload.
func generationOf(payload string) string { return ulidOf("generation", payload) }

func resource(t *testing.T, resID *pbresource.ID, payload string) *pbresource.Resource {
	t.Helper()
	data, err := anypb.New(wrapperspb.String(payload))
	if err != nil {
		t.Fatal(err)
	}
	return &pbresource.Resource{Id: resID, Data: data, Generation: generationOf(payload)}
}

func payloadOf(t *testing.T, res *pbresource.Resource) string {
	t.Helper()
	var s wrapperspb.StringValue
	if err := res.GetData().UnmarshalTo(&s); err != nil {
		t.Fatalf("stored data of %s is not the written message: %v", res.GetId().GetName(), err)
	}
	return s.GetValue()
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustWrite(t *testing.T, b store.Backend, res *pbresource.Resource) *pbresource.Resource {
	t.Helper()
	out, err := b.WriteCAS(ctxFor(t), res)
	if err != nil {
		t.Fatalf("WriteCAS %s: %v", res.GetId().GetName(), err)
	}
	return out
}

func expectErr(t *testing.T, what string, got, want error) {
	t.Helper()
	if !errors.Is(got, want) {
		t.Fatalf("%s: got error %v, want %v", what, got, want)
	}
}

func names(resources []*pbresource.Resource) map[string]bool {
	out := map[string]bool{}
	for _, res := range resources {
		out[fmt.Sprintf("%s/%s/%s", res.GetId().GetTenancy().GetPartition(), res.GetId().GetTenancy().GetNamespace(), res.GetId().GetName())] = true
	}
	return out
}

// nextEvent reads one event or fails the test after a deadline, so a lost
// event shows up as a failure instead of a hung test.
func nextEvent(t *testing.T, w store.Watch) store.WatchEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ev, err := w.Next(ctx)
	if err != nil {
		t.Fatalf("watch Next: %v", err)
	}
	return ev
}

// expectQuiet checks that no further event arrives for a short while.
func expectQuiet(t *testing.T, w store.Watch) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if ev, err := w.Next(ctx); err == nil {
		t.Fatalf("unexpected watch event %v for %s", ev.Kind, ev.Resource.GetId().GetName())
	}
}
