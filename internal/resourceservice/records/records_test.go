package records_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

func newService(t *testing.T) *resourceservice.Service {
	t.Helper()
	backend := memory.New()
	t.Cleanup(func() { _ = backend.Close() })
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	return resourceservice.New(backend, registry)
}

func record(t *testing.T, id *pbresource.ID, owner *pbresource.ID, data proto.Message) *pbresource.Resource {
	t.Helper()
	packed, err := anypb.New(data)
	if err != nil {
		t.Fatal(err)
	}
	return &pbresource.Resource{Id: id, Owner: owner, Data: packed}
}

func validInstance() *recordsv1.ResourceInstance {
	return &recordsv1.ResourceInstance{
		Mode: recordsv1.ResourceMode_RESOURCE_MODE_MANAGED, Type: "null_resource", Name: "n",
		Each: recordsv1.EachMode_EACH_MODE_LIST, Key: &recordsv1.InstanceKey{Key: &recordsv1.InstanceKey_Int{Int: 3}},
		Provider: `provider["registry.terraform.io/hashicorp/null"]`,
		Current:  &recordsv1.ObjectState{AttributesJson: []byte(`{"id":"123"}`)},
	}
}

func TestInstanceValidation(t *testing.T) {
	svc := newService(t)
	ctx := t.Context()
	ws, err := svc.Write(ctx, record(t, records.WorkspaceID("proj", "prod"), nil, &recordsv1.Workspace{Lineage: "l-1"}))
	if err != nil {
		t.Fatal(err)
	}
	otherWs, err := svc.Write(ctx, record(t, records.WorkspaceID("proj", "dev"), nil, &recordsv1.Workspace{}))
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(change func(*recordsv1.ResourceInstance)) *recordsv1.ResourceInstance {
		inst := validInstance()
		change(inst)
		return inst
	}
	tests := []struct {
		name  string
		owner *pbresource.ID
		inst  *recordsv1.ResourceInstance
		want  codes.Code
	}{
		{"valid", ws.GetId(), validInstance(), codes.OK},
		{"no owner", nil, validInstance(), codes.InvalidArgument},
		{"owned by another workspace", otherWs.GetId(), validInstance(), codes.InvalidArgument},
		{"no provider", ws.GetId(), mutate(func(i *recordsv1.ResourceInstance) { i.Provider = "" }), codes.InvalidArgument},
		{"string key under count", ws.GetId(), mutate(func(i *recordsv1.ResourceInstance) {
			i.Key = &recordsv1.InstanceKey{Key: &recordsv1.InstanceKey_String_{String_: "a"}}
		}), codes.InvalidArgument},
		{"bad deposed key", ws.GetId(), mutate(func(i *recordsv1.ResourceInstance) {
			i.Deposed = map[string]*recordsv1.ObjectState{"xyz": {}}
		}), codes.InvalidArgument},
		{"attributes not JSON", ws.GetId(), mutate(func(i *recordsv1.ResourceInstance) { i.Current.AttributesJson = []byte("{") }), codes.InvalidArgument},
		{"intent without run", ws.GetId(), mutate(func(i *recordsv1.ResourceInstance) {
			i.Intent = &recordsv1.Intent{Operation: recordsv1.Operation_OPERATION_CREATE}
		}), codes.InvalidArgument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Write(ctx, record(t, records.InstanceID("proj", "prod", "null_resource.n[3]"), tc.owner, tc.inst))
			if got := status.Code(err); got != tc.want {
				t.Fatalf("got %v (%v), want %v", got, err, tc.want)
			}
		})
	}
}

func TestWorkspaceWithInstancesIsDeletedOnlyWhenForced(t *testing.T) {
	svc := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	reaperCtx, stopReaper := context.WithCancel(ctx)
	reaperDone := make(chan struct{})
	go func() {
		defer close(reaperDone)
		_ = (&resourceservice.Reaper{Service: svc, RetryInterval: 50 * time.Millisecond}).Run(reaperCtx)
	}()
	defer func() { stopReaper(); <-reaperDone }()

	ws, err := svc.Write(ctx, record(t, records.WorkspaceID("proj", "prod"), nil, &recordsv1.Workspace{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Write(ctx, record(t, records.InstanceID("proj", "prod", "null_resource.n[3]"), ws.GetId(), validInstance())); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Write(ctx, record(t, records.OutputID("proj", "prod", "id"), ws.GetId(), &recordsv1.Output{ValueJson: []byte(`"123"`)})); err != nil {
		t.Fatal(err)
	}
	err = svc.Delete(ctx, ws.GetId(), resourceservice.DeleteOptions{})
	if status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("deleting a workspace with instances: %v, want FailedPrecondition", err)
	}
	if err := svc.Delete(ctx, ws.GetId(), resourceservice.DeleteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	for {
		_, err := svc.Read(ctx, store.StrongConsistency, records.InstanceID("proj", "prod", "null_resource.n[3]"))
		_, outErr := svc.Read(ctx, store.StrongConsistency, records.OutputID("proj", "prod", "id"))
		if status.Code(err) == codes.NotFound && status.Code(outErr) == codes.NotFound {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("records of a force-deleted workspace were not reaped: %v / %v", err, outErr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestEncryptedDataIsStoredUnread covers records whose data a client
// encrypted (state encryption) before writing them to a terrane serve: the
// service cannot read them, so it stores them after checking what it can
// see — the ID, the owner, the envelope — and refuses any other message.
func TestEncryptedDataIsStoredUnread(t *testing.T) {
	svc := newService(t)
	ctx := t.Context()
	sealed := &recordsv1.Encrypted{Method: "method.aes_gcm.m", EncryptedData: []byte("opaque"), EncryptionVersion: "v0"}
	ws, err := svc.Write(ctx, record(t, records.WorkspaceID("proj", "prod"), nil, sealed))
	if err != nil {
		t.Fatalf("an encrypted workspace record was refused: %v", err)
	}
	instance := records.InstanceID("proj", "prod", "null_resource.n")
	if _, err := svc.Write(ctx, record(t, instance, ws.GetId(), sealed)); err != nil {
		t.Fatalf("an encrypted instance record was refused: %v", err)
	}
	if _, err := svc.Write(ctx, record(t, records.OutputID("proj", "prod", "o"), ws.GetId(), sealed)); err != nil {
		t.Fatalf("an encrypted output record was refused: %v", err)
	}
	refused := []struct {
		name  string
		id    *pbresource.ID
		owner *pbresource.ID
		data  proto.Message
	}{
		{"instance without owner", records.InstanceID("proj", "prod", "null_resource.m"), nil, sealed},
		{"workspace with an owner", records.WorkspaceID("proj", "dev"), ws.GetId(), sealed},
		{"another message", records.InstanceID("proj", "prod", "null_resource.k"), ws.GetId(), &recordsv1.Output{}},
		{"empty envelope", records.InstanceID("proj", "prod", "null_resource.e"), ws.GetId(), &recordsv1.Encrypted{EncryptionVersion: "v0"}},
		{"envelope without version", records.OutputID("proj", "prod", "v"), ws.GetId(), &recordsv1.Encrypted{EncryptedData: []byte("opaque")}},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Write(ctx, record(t, tc.id, tc.owner, tc.data))
			if got := status.Code(err); got != codes.InvalidArgument {
				t.Fatalf("got %v (%v), want InvalidArgument", got, err)
			}
		})
	}
}
