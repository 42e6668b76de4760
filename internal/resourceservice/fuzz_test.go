package resourceservice

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/storev1"
)

// The request kinds FuzzResourceServiceRequest sends: every method of
// ResourceService and of the BatchService a remote store writes through.
const (
	fuzzRead = iota
	fuzzWrite
	fuzzWriteStatus
	fuzzList
	fuzzListByOwner
	fuzzDelete
	fuzzWatchList
	fuzzMutateAndValidate
	fuzzBatch
	fuzzReadMany
	fuzzKinds
)

var (
	fuzzOwnerType = &pbresource.Type{Group: "fuzz", GroupVersion: "v1", Kind: "Owner"}
	fuzzLeafType  = &pbresource.Type{Group: "fuzz", GroupVersion: "v1", Kind: "Leaf"}
	fuzzTenancy   = &pbresource.Tenancy{Partition: "proj", Namespace: "prod"}
)

// fuzzServer is a service on a memory backend holding an owner and one
// resource it owns, with its gRPC handlers and two tokens: one for
// everything, one for proj/prod only.
func fuzzServer(t testing.TB) (*Server, *batchServer, *pbresource.Resource) {
	t.Helper()
	backend := memory.New()
	t.Cleanup(func() { _ = backend.Close() })
	registry := NewRegistry()
	for _, reg := range []Registration{{Type: fuzzOwnerType}, {Type: fuzzLeafType, Data: &wrapperspb.StringValue{}, Leaf: true}} {
		if err := registry.Register(reg); err != nil {
			t.Fatal(err)
		}
	}
	service := New(backend, registry)
	owner, err := service.Write(t.Context(), &pbresource.Resource{Id: &pbresource.ID{Type: fuzzOwnerType, Tenancy: fuzzTenancy, Name: "owner"}})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := anypb.New(wrapperspb.String("leaf"))
	if _, err := service.Write(t.Context(), &pbresource.Resource{Id: &pbresource.ID{Type: fuzzLeafType, Tenancy: fuzzTenancy, Name: "leaf"}, Owner: owner.GetId(), Data: data}); err != nil {
		t.Fatal(err)
	}
	tokens, err := ParseTokens([]string{"admin", "scoped@proj/prod"})
	if err != nil {
		t.Fatal(err)
	}
	return NewServer(service, tokens, WatchLimits{}), &batchServer{service: service, tokens: tokens}, owner
}

// snapshotStream is a WatchList stream that ends once the snapshot has
// been sent.
type snapshotStream struct {
	grpc.ServerStream
	ctx    context.Context
	cancel context.CancelFunc
}

func (s *snapshotStream) Context() context.Context { return s.ctx }

func (s *snapshotStream) Send(event *pbresource.WatchEvent) error {
	if event.GetEndOfSnapshot() != nil {
		s.cancel()
	}
	return nil
}

// fuzzSeeds are one well-formed request of each kind.
func fuzzSeeds(owner *pbresource.Resource) map[int]proto.Message {
	data, _ := anypb.New(wrapperspb.String("title"))
	leafID := &pbresource.ID{Type: fuzzLeafType, Tenancy: fuzzTenancy, Name: "leaf"}
	newLeaf := &pbresource.Resource{Id: &pbresource.ID{Type: fuzzLeafType, Tenancy: fuzzTenancy, Name: "new"}, Owner: owner.GetId(), Data: data}
	return map[int]proto.Message{
		fuzzRead:              &pbresource.ReadRequest{Id: leafID},
		fuzzWrite:             &pbresource.WriteRequest{Resource: newLeaf},
		fuzzWriteStatus:       &pbresource.WriteStatusRequest{Id: owner.GetId(), Key: "k", Status: &pbresource.Status{ObservedGeneration: owner.GetGeneration()}},
		fuzzList:              &pbresource.ListRequest{Type: fuzzLeafType, Tenancy: &pbresource.Tenancy{Partition: "*", Namespace: "*"}},
		fuzzListByOwner:       &pbresource.ListByOwnerRequest{Owner: owner.GetId()},
		fuzzDelete:            &pbresource.DeleteRequest{Id: owner.GetId()},
		fuzzWatchList:         &pbresource.WatchListRequest{Type: fuzzLeafType, Tenancy: fuzzTenancy},
		fuzzMutateAndValidate: &pbresource.MutateAndValidateRequest{Resource: newLeaf},
		fuzzReadMany:          &storev1.ReadManyRequest{Ids: []*pbresource.ID{leafID, owner.GetId()}, Consistent: true},
		fuzzBatch: &storev1.BatchRequest{Operations: []*storev1.Operation{
			{Operation: &storev1.Operation_Delete{Delete: &storev1.Delete{Id: owner.GetId(), Version: owner.GetVersion()}}},
		}},
	}
}

// FuzzResourceServiceRequest decodes arbitrary bytes as each kind of
// request the gRPC services take and sends it, with a full or a scoped
// token: every request ends in an answer or an error, never a panic. The
// seeds are one well-formed request of each kind.
func FuzzResourceServiceRequest(f *testing.F) {
	_, _, owner := fuzzServer(f)
	for kind, req := range fuzzSeeds(owner) {
		payload, err := proto.Marshal(req)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(kind), payload, false)
		f.Add(uint8(kind), payload, true)
	}
	f.Fuzz(func(t *testing.T, kind uint8, payload []byte, scoped bool) {
		server, batches, _ := fuzzServer(t)
		token := "admin"
		if scoped {
			token = "scoped"
		}
		ctx, cancel := context.WithTimeout(metadata.NewIncomingContext(t.Context(), metadata.Pairs(TokenMetadataKey, token)), 5*time.Second)
		defer cancel()
		sendFuzzRequest(ctx, server, batches, int(kind)%fuzzKinds, payload)
	})
}

func sendFuzzRequest(ctx context.Context, server *Server, batches *batchServer, kind int, payload []byte) {
	decode := func(msg proto.Message) bool { return proto.Unmarshal(payload, msg) == nil }
	switch kind {
	case fuzzRead:
		if req := new(pbresource.ReadRequest); decode(req) {
			_, _ = server.Read(ctx, req)
		}
	case fuzzWrite:
		if req := new(pbresource.WriteRequest); decode(req) {
			_, _ = server.Write(ctx, req)
		}
	case fuzzWriteStatus:
		if req := new(pbresource.WriteStatusRequest); decode(req) {
			_, _ = server.WriteStatus(ctx, req)
		}
	case fuzzList:
		if req := new(pbresource.ListRequest); decode(req) {
			_, _ = server.List(ctx, req)
		}
	case fuzzListByOwner:
		if req := new(pbresource.ListByOwnerRequest); decode(req) {
			_, _ = server.ListByOwner(ctx, req)
		}
	case fuzzDelete:
		if req := new(pbresource.DeleteRequest); decode(req) {
			_, _ = server.Delete(ctx, req)
		}
	case fuzzWatchList:
		if req := new(pbresource.WatchListRequest); decode(req) {
			streamCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			_ = server.WatchList(req, &snapshotStream{ctx: streamCtx, cancel: cancel})
		}
	case fuzzMutateAndValidate:
		if req := new(pbresource.MutateAndValidateRequest); decode(req) {
			_, _ = server.MutateAndValidate(ctx, req)
		}
	case fuzzBatch:
		if req := new(storev1.BatchRequest); decode(req) {
			_, _ = batches.Batch(ctx, req)
		}
	case fuzzReadMany:
		if req := new(storev1.ReadManyRequest); decode(req) {
			_, _ = batches.ReadMany(ctx, req)
		}
	}
}
