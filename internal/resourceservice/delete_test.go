package resourceservice_test

import (
	"fmt"
	"testing"

	"github.com/oklog/ulid/v2"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/proto/pbresource"
)

func (f *fixture) delete(t *testing.T, id *pbresource.ID, version string) error {
	t.Helper()
	_, err := f.client.Delete(ctxFor(t), &pbresource.DeleteRequest{Id: id, Version: version})
	return err
}

func TestDeleteIsIdempotentAndChecksVersionAndUid(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	stored := f.write(t, newResource(t, newID(trackType, "blue"), "Blue"))
	f.write(t, newResource(t, newID(trackType, "blue"), "Blue 2"))

	expectCode(t, "stale version", f.delete(t, newID(trackType, "blue"), stored.GetVersion()), codes.Aborted)
	wrongUid := newID(trackType, "blue")
	wrongUid.Uid = ulid.Make().String()
	expectCode(t, "wrong uid", f.delete(t, wrongUid, ""), codes.FailedPrecondition)

	if err := f.delete(t, stored.GetId(), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.read(t, newID(trackType, "blue")); status.Code(err) != codes.NotFound {
		t.Fatalf("read after delete: %v", err)
	}
	if err := f.delete(t, stored.GetId(), ""); err != nil {
		t.Fatalf("second delete: %v", err)
	}
}

func TestReaperDeletesOwnedResourcesInCascade(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	label := f.write(t, newResource(t, newID(artistType, "label"), ""))
	artist := f.write(t, withOwner(newResource(t, newID(artistType, "miles"), ""), label.GetId()))
	for i := range 3 {
		f.write(t, withOwner(newResource(t, newID(trackType, fmt.Sprintf("track-%d", i)), "t"), artist.GetId()))
	}
	// A guarded owner is not reaped while it owns something: the cascade
	// stops there rather than lose what it guards.
	album := f.write(t, withOwner(newResource(t, newID(albumType, "kind-of-blue"), ""), artist.GetId()))
	f.write(t, withOwner(newResource(t, newID(trackType, "so-what"), "So What"), album.GetId()))
	bystander := f.write(t, newResource(t, newID(trackType, "bystander"), "stays"))

	if err := f.delete(t, label.GetId(), ""); err != nil {
		t.Fatal(err)
	}
	eventually(t, "cascade through artist to tracks", func() error {
		for _, id := range []*pbresource.ID{newID(artistType, "miles"), newID(trackType, "track-0"), newID(trackType, "track-1"), newID(trackType, "track-2")} {
			if _, err := f.read(t, id); status.Code(err) != codes.NotFound {
				return fmt.Errorf("%s still readable (%v)", id.GetName(), err)
			}
		}
		return nil
	})
	for _, id := range []*pbresource.ID{newID(albumType, "kind-of-blue"), newID(trackType, "so-what")} {
		if _, err := f.read(t, id); err != nil {
			t.Fatalf("guarded %s was reaped: %v", id.GetName(), err)
		}
	}
	if got, err := f.read(t, newID(trackType, "bystander")); err != nil || got.GetVersion() != bystander.GetVersion() {
		t.Fatalf("an unowned resource was touched: %v %v", got, err)
	}

	// Once the guard is satisfied the pending tombstone is kept.
	if err := f.delete(t, newID(trackType, "so-what"), ""); err != nil {
		t.Fatal(err)
	}
	eventually(t, "album reaped and tombstones gone", func() error {
		if _, err := f.read(t, newID(albumType, "kind-of-blue")); status.Code(err) != codes.NotFound {
			return fmt.Errorf("album still readable (%v)", err)
		}
		tombstones, err := f.client.List(ctxFor(t), &pbresource.ListRequest{Type: resourceservice.TombstoneType, Tenancy: projectTenancy})
		if err != nil || len(tombstones.GetResources()) != 0 {
			return fmt.Errorf("%d tombstones left (%v)", len(tombstones.GetResources()), err)
		}
		return nil
	})
}

func TestGuardedDeleteNeedsForce(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	album := f.write(t, newResource(t, newID(albumType, "kind-of-blue"), ""))
	f.write(t, withOwner(newResource(t, newID(trackType, "so-what"), "So What"), album.GetId()))

	expectCode(t, "delete of an album with tracks", f.delete(t, album.GetId(), ""), codes.FailedPrecondition)
	if _, err := f.read(t, newID(trackType, "so-what")); err != nil {
		t.Fatalf("refused delete lost a track: %v", err)
	}
	forced := metadata.AppendToOutgoingContext(ctxFor(t), resourceservice.ForceDeleteMetadataKey, "true")
	if _, err := f.client.Delete(forced, &pbresource.DeleteRequest{Id: album.GetId()}); err != nil {
		t.Fatalf("forced delete: %v", err)
	}
	eventually(t, "track reaped after forced delete", func() error {
		if _, err := f.read(t, newID(trackType, "so-what")); status.Code(err) != codes.NotFound {
			return fmt.Errorf("track still readable (%v)", err)
		}
		return nil
	})
}

func TestFinalizersDeferDeletion(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	res := newResource(t, newID(trackType, "blue"), "Blue")
	res.Metadata = map[string]string{resourceservice.FinalizersKey: "backup audit"}
	stored := f.write(t, res)

	if err := f.delete(t, stored.GetId(), ""); err != nil {
		t.Fatal(err)
	}
	marked, err := f.read(t, newID(trackType, "blue"))
	if err != nil {
		t.Fatalf("a resource with finalizers was deleted: %v", err)
	}
	if marked.GetMetadata()[resourceservice.DeletionTimestampKey] == "" {
		t.Fatal("Delete did not set deletionTimestamp")
	}
	if err := f.delete(t, stored.GetId(), ""); err != nil {
		t.Fatalf("repeated delete of a marked resource: %v", err)
	}

	edit := newResource(t, newID(trackType, "blue"), "Blue (edited)")
	edit.Metadata = marked.GetMetadata()
	_, err = f.client.Write(ctxFor(t), &pbresource.WriteRequest{Resource: edit})
	expectCode(t, "changing data of a marked resource", err, codes.InvalidArgument)

	oneLeft := newResource(t, newID(trackType, "blue"), "Blue")
	oneLeft.Metadata = map[string]string{resourceservice.DeletionTimestampKey: marked.GetMetadata()[resourceservice.DeletionTimestampKey], resourceservice.FinalizersKey: "audit"}
	f.write(t, oneLeft)
	if _, err := f.read(t, newID(trackType, "blue")); err != nil {
		t.Fatalf("removing one of two finalizers deleted the resource: %v", err)
	}
	none := newResource(t, newID(trackType, "blue"), "Blue")
	none.Metadata = map[string]string{resourceservice.DeletionTimestampKey: marked.GetMetadata()[resourceservice.DeletionTimestampKey]}
	f.write(t, none)
	if _, err := f.read(t, newID(trackType, "blue")); status.Code(err) != codes.NotFound {
		t.Fatalf("removing the last finalizer did not delete the resource: %v", err)
	}
}
