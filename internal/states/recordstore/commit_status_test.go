package recordstore_test

import (
	"errors"
	"testing"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/proto/pbresource"
)

// A controller's status write between a run's read and its write changes
// the record's Version but not its content: the run's change still goes
// in, and a real content change by someone else still stops it.
func TestCommitFollowsStatusOnlyChanges(t *testing.T) {
	backend := memory.New()
	t.Cleanup(func() { _ = backend.Close() })
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	service := resourceservice.New(backend, registry)
	s := recordstore.New(service, "proj", "prod")
	ctx := t.Context()
	if _, err := s.BeginRun(ctx, "0.1.0"); err != nil {
		t.Fatal(err)
	}
	addr := instance(t, "null_resource.n")
	created, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: object("1")}})
	if err != nil {
		t.Fatal(err)
	}
	first := created[addr.String()]
	writeStatus := func(gen string) {
		t.Helper()
		id := records.InstanceID("proj", "prod", addr.String())
		id.Uid = first.Uid
		st := &pbresource.Status{ObservedGeneration: gen, Conditions: []*pbresource.Condition{{Type: "InSync", State: pbresource.Condition_STATE_TRUE, Reason: "Refreshed"}}}
		if _, err := service.WriteStatus(ctx, id, "", "terrane.reconcile", st); err != nil {
			t.Fatal(err)
		}
	}
	writeStatus(first.Generation)

	updated, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: object("2"), Prior: &first}})
	if err != nil {
		t.Fatalf("an update after a status write failed: %v", err)
	}
	got := updated[addr.String()]
	if got.Generation == first.Generation {
		t.Fatal("the update kept the generation")
	}
	stored, err := service.Read(ctx, 0, records.InstanceID("proj", "prod", addr.String()))
	if err != nil {
		t.Fatal(err)
	}
	if stored.GetStatus()["terrane.reconcile"] == nil {
		t.Error("the update dropped the status another writer set")
	}

	// A content change by another run is still a conflict.
	if _, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: object("3"), Prior: &got}}); err != nil {
		t.Fatal(err)
	}
	writeStatus(got.Generation)
	_, err = s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: object("stale"), Prior: &got}})
	var conflict *recordstore.ConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("a stale update after another run's write: got %v, want a conflict", err)
	}

	// Deletes follow status-only changes too.
	read, err := s.ReadInstance(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	prior := read.Record
	first = prior
	writeStatus(prior.Generation)
	if _, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, Prior: &prior}}); err != nil {
		t.Fatalf("a delete after a status write failed: %v", err)
	}
}
