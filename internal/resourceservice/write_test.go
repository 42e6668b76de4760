package resourceservice_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

func TestWriteAssignsUidGenerationAndVersion(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	created := f.write(t, newResource(t, newID(trackType, "intro"), "Intro"))
	for field, value := range map[string]string{"uid": created.GetId().GetUid(), "generation": created.GetGeneration()} {
		if _, err := ulid.ParseStrict(value); err != nil {
			t.Errorf("%s %q is not a ULID: %v", field, value, err)
		}
	}
	if created.GetVersion() == "" {
		t.Fatal("created resource has no version")
	}

	same := f.write(t, newResource(t, newID(trackType, "intro"), "Intro"))
	if same.GetVersion() != created.GetVersion() || same.GetGeneration() != created.GetGeneration() {
		t.Errorf("rewriting identical content changed version/generation: %v -> %v", created, same)
	}

	updated := f.write(t, newResource(t, newID(trackType, "intro"), "Intro (remastered)"))
	if updated.GetId().GetUid() != created.GetId().GetUid() {
		t.Errorf("update changed the uid from %s to %s", created.GetId().GetUid(), updated.GetId().GetUid())
	}
	if updated.GetGeneration() == created.GetGeneration() || updated.GetVersion() == created.GetVersion() {
		t.Errorf("content change kept generation %s / version %s", updated.GetGeneration(), updated.GetVersion())
	}
	if titleOf(t, updated) != "Intro (remastered)" {
		t.Errorf("stored title %q", titleOf(t, updated))
	}
}

func TestWriteRejections(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	artist := f.write(t, newResource(t, newID(artistType, "nina"), ""))
	otherArtist := f.write(t, newResource(t, newID(artistType, "miles"), ""))
	track := newResource(t, newID(trackType, "blue"), "Blue")
	track.Owner = artist.GetId()
	stored := f.write(t, track)
	f.write(t, newResource(t, newID(trackType, "blue"), "Blue v2")) // moves the version on

	staleVersion := newResource(t, newID(trackType, "blue"), "stale")
	staleVersion.Version = stored.GetVersion()
	wrongUid := newResource(t, newID(trackType, "blue"), "x")
	wrongUid.Id.Uid = ulid.Make().String()
	uidOfDeleted := newResource(t, newID(trackType, "never-stored"), "x")
	uidOfDeleted.Id.Uid = ulid.Make().String()
	withStatus := newResource(t, newID(trackType, "blue"), "Blue v2")
	withStatus.Status = map[string]*pbresource.Status{"ctl": {ObservedGeneration: stored.GetGeneration()}}
	newOwner := newResource(t, newID(trackType, "blue"), "Blue v2")
	newOwner.Owner = otherArtist.GetId()
	wrongData := newResource(t, newID(trackType, "empty"), "")
	wrongData.Data, _ = anypb.New(&emptypb.Empty{})
	ownerIsLeaf := newResource(t, newID(trackType, "child-of-track"), "x")
	ownerIsLeaf.Owner = stored.GetId()
	missingOwner := newResource(t, newID(trackType, "orphan"), "x")
	missingOwner.Owner = newID(artistType, "nobody")
	deletionMark := newResource(t, newID(trackType, "marked"), "x")
	deletionMark.Metadata = map[string]string{resourceservice.DeletionTimestampKey: "2024-01-01T00:00:00Z"}
	wildcard := newResource(t, &pbresource.ID{Type: trackType, Tenancy: &pbresource.Tenancy{Partition: "*", Namespace: "x"}, Name: "w"}, "x")

	tests := []struct {
		name string
		res  *pbresource.Resource
		want codes.Code
	}{
		{"stale version", staleVersion, codes.Aborted},
		{"wrong uid", wrongUid, codes.FailedPrecondition},
		{"uid of a resource that is gone", uidOfDeleted, codes.FailedPrecondition},
		{"status through Write", withStatus, codes.InvalidArgument},
		{"owner changed", newOwner, codes.InvalidArgument},
		{"unregistered type", newResource(t, newID(&pbresource.Type{Group: "x", GroupVersion: "v1", Kind: "Y"}, "a"), ""), codes.InvalidArgument},
		{"internal type", newResource(t, newID(resourceservice.TombstoneType, "t"), ""), codes.InvalidArgument},
		{"data of another message", wrongData, codes.InvalidArgument},
		{"validate hook", newResource(t, newID(trackType, "bad"), "invalid"), codes.InvalidArgument},
		{"leaf type as owner", ownerIsLeaf, codes.InvalidArgument},
		{"owner does not exist", missingOwner, codes.InvalidArgument},
		{"deletion timestamp on create", deletionMark, codes.InvalidArgument},
		{"no name", newResource(t, newID(trackType, ""), "x"), codes.InvalidArgument},
		{"wildcard tenancy", wildcard, codes.InvalidArgument},
		{"no resource", nil, codes.InvalidArgument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.client.Write(ctxFor(t), &pbresource.WriteRequest{Resource: tc.res})
			expectCode(t, tc.name, err, tc.want)
		})
	}
}

func TestWriteCarriesOwnerAndStatus(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	artist := f.write(t, newResource(t, newID(artistType, "nina"), ""))
	track := newResource(t, newID(trackType, "blue"), "Blue")
	track.Owner = &pbresource.ID{Type: artistType, Tenancy: projectTenancy, Name: "nina"} // no uid: resolved
	stored := f.write(t, track)
	if stored.GetOwner().GetUid() != artist.GetId().GetUid() {
		t.Fatalf("owner uid %q, want the artist's %q", stored.GetOwner().GetUid(), artist.GetId().GetUid())
	}
	statusResp, err := f.client.WriteStatus(ctxFor(t), &pbresource.WriteStatusRequest{
		Id: stored.GetId(), Key: "checker", Status: &pbresource.Status{ObservedGeneration: stored.GetGeneration()}})
	if err != nil {
		t.Fatal(err)
	}
	// A write without owner or status keeps both.
	updated := f.write(t, newResource(t, newID(trackType, "blue"), "Blue (live)"))
	if updated.GetOwner().GetUid() != artist.GetId().GetUid() {
		t.Errorf("owner lost on update: %v", updated.GetOwner())
	}
	if updated.GetStatus()["checker"].GetObservedGeneration() != stored.GetGeneration() {
		t.Errorf("status lost on update: %v", updated.GetStatus())
	}
	if statusResp.GetResource().GetVersion() == updated.GetVersion() {
		t.Error("version did not change on update")
	}
}

func TestWriteStatus(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	stored := f.write(t, newResource(t, newID(trackType, "blue"), "Blue"))
	good := &pbresource.Status{ObservedGeneration: stored.GetGeneration(),
		Conditions: []*pbresource.Condition{{Type: "Accepted", State: pbresource.Condition_STATE_TRUE}}}

	resp, err := f.client.WriteStatus(ctxFor(t), &pbresource.WriteStatusRequest{Id: stored.GetId(), Key: "checker", Status: good})
	if err != nil {
		t.Fatal(err)
	}
	written := resp.GetResource()
	if written.GetGeneration() != stored.GetGeneration() {
		t.Errorf("status write changed generation %s -> %s", stored.GetGeneration(), written.GetGeneration())
	}
	if written.GetVersion() == stored.GetVersion() {
		t.Error("status write kept the version")
	}
	if written.GetStatus()["checker"].GetUpdatedAt() == nil {
		t.Error("updated_at was not set")
	}

	noUid := &pbresource.ID{Type: trackType, Tenancy: projectTenancy, Name: "blue"}
	otherUid := &pbresource.ID{Type: trackType, Tenancy: projectTenancy, Name: "blue", Uid: ulid.Make().String()}
	missing := &pbresource.ID{Type: trackType, Tenancy: projectTenancy, Name: "gone", Uid: ulid.Make().String()}
	tests := []struct {
		name string
		req  *pbresource.WriteStatusRequest
		want codes.Code
	}{
		{"no uid", &pbresource.WriteStatusRequest{Id: noUid, Key: "k", Status: good}, codes.InvalidArgument},
		{"no key", &pbresource.WriteStatusRequest{Id: stored.GetId(), Status: good}, codes.InvalidArgument},
		{"no observed generation", &pbresource.WriteStatusRequest{Id: stored.GetId(), Key: "k", Status: &pbresource.Status{}}, codes.InvalidArgument},
		{"observed generation not a ULID", &pbresource.WriteStatusRequest{Id: stored.GetId(), Key: "k", Status: &pbresource.Status{ObservedGeneration: "7"}}, codes.InvalidArgument},
		{"wrong uid", &pbresource.WriteStatusRequest{Id: otherUid, Key: "k", Status: good}, codes.FailedPrecondition},
		{"stale version", &pbresource.WriteStatusRequest{Id: stored.GetId(), Version: stored.GetVersion(), Key: "k", Status: good}, codes.Aborted},
		{"absent resource", &pbresource.WriteStatusRequest{Id: missing, Key: "k", Status: good}, codes.NotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.client.WriteStatus(ctxFor(t), tc.req)
			expectCode(t, tc.name, err, tc.want)
		})
	}
}

func TestReadAndList(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	stored := f.write(t, newResource(t, newID(trackType, "a.one"), "one"))
	f.write(t, newResource(t, newID(trackType, "a.two"), "two"))
	f.write(t, newResource(t, newID(trackType, "b.three"), "three"))
	f.write(t, newResource(t, &pbresource.ID{Type: trackType, Tenancy: &pbresource.Tenancy{Partition: "other", Namespace: "prod"}, Name: "a.four"}, "four"))

	consistent := metadata.AppendToOutgoingContext(ctxFor(t), resourceservice.ConsistencyMetadataKey, "consistent")
	resp, err := f.client.Read(consistent, &pbresource.ReadRequest{Id: newID(trackType, "a.one")})
	if err != nil || resp.GetResource().GetVersion() != stored.GetVersion() {
		t.Fatalf("consistent read: %v %v", resp, err)
	}
	_, err = f.read(t, newID(trackType, "absent"))
	expectCode(t, "absent resource", err, codes.NotFound)

	v2 := &pbresource.Type{Group: "music", GroupVersion: "v2", Kind: "Track"}
	_, err = f.read(t, newID(v2, "a.one"))
	expectCode(t, "read under another group version", err, codes.InvalidArgument)
	if details := status.Convert(err).Details(); len(details) != 1 {
		t.Errorf("group version mismatch carries %d details, want the stored resource", len(details))
	}

	list, err := f.client.List(ctxFor(t), &pbresource.ListRequest{Type: trackType, Tenancy: projectTenancy, NamePrefix: "a."})
	if err != nil || len(list.GetResources()) != 2 {
		t.Fatalf("list by prefix: %d resources, %v", len(list.GetResources()), err)
	}
	all, err := f.client.List(ctxFor(t), &pbresource.ListRequest{Type: trackType, Tenancy: &pbresource.Tenancy{Partition: "*", Namespace: "*"}, NamePrefix: "a."})
	if err != nil || len(all.GetResources()) != 3 {
		t.Fatalf("wildcard list: %d resources, %v", len(all.GetResources()), err)
	}
}

func TestMutateAndValidate(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	resp, err := f.client.MutateAndValidate(ctxFor(t), &pbresource.MutateAndValidateRequest{Resource: newResource(t, newID(trackType, "x"), "")})
	if err != nil {
		t.Fatal(err)
	}
	if titleOf(t, resp.GetResource()) != "untitled" {
		t.Errorf("mutate hook did not fill the title: %q", titleOf(t, resp.GetResource()))
	}
	if _, err := f.read(t, newID(trackType, "x")); status.Code(err) != codes.NotFound {
		t.Errorf("MutateAndValidate stored the resource: %v", err)
	}
	_, err = f.client.MutateAndValidate(ctxFor(t), &pbresource.MutateAndValidateRequest{Resource: newResource(t, newID(trackType, "x"), "invalid")})
	expectCode(t, "validate hook", err, codes.InvalidArgument)
}

func TestBatchIsAtomicAndNamesTheFailingOperation(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	album := f.write(t, newResource(t, newID(albumType, "kind-of-blue"), ""))
	existing := f.write(t, newResource(t, newID(trackType, "so-what"), "So What"))
	ops := []resourceservice.BatchOp{
		{Write: withOwner(newResource(t, newID(trackType, "freddie"), "Freddie"), album.GetId())},
		{Write: withVersion(newResource(t, newID(trackType, "so-what"), "So What?"), "stale")},
	}
	_, err := f.service.Batch(ctxFor(t), ops)
	expectCode(t, "batch with a stale version", err, codes.Aborted)
	var batchErr *store.BatchError
	if !errors.As(err, &batchErr) || batchErr.Index != 1 || !errors.Is(err, store.ErrCASFailure) {
		t.Fatalf("error %v does not name operation 1 as a CAS failure", err)
	}
	if _, err := f.read(t, newID(trackType, "freddie")); status.Code(err) != codes.NotFound {
		t.Fatalf("a failed batch applied its first write: %v", err)
	}

	ops[1].Write.Version = existing.GetVersion()
	ops = append(ops, resourceservice.BatchOp{Delete: newID(trackType, "never-existed")})
	results, err := f.service.Batch(ctxFor(t), ops)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 || results[0].GetOwner().GetUid() != album.GetId().GetUid() || titleOf(t, results[1]) != "So What?" || results[2] != nil {
		t.Fatalf("batch results %v", results)
	}
	if results[1].GetId().GetUid() != existing.GetId().GetUid() || results[1].GetGeneration() == existing.GetGeneration() {
		t.Errorf("batch update broke uid/generation rules: %v -> %v", existing, results[1])
	}
}

func withOwner(res *pbresource.Resource, owner *pbresource.ID) *pbresource.Resource {
	res.Owner = owner
	return res
}

func withVersion(res *pbresource.Resource, version string) *pbresource.Resource {
	res.Version = version
	return res
}

func TestBatchCreateOnlyRefusesAnExistingResource(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	ops := []resourceservice.BatchOp{
		{Write: newResource(t, newID(trackType, "blue-in-green"), "Blue in Green"), CreateOnly: true},
	}
	if _, err := f.service.Batch(ctxFor(t), ops); err != nil {
		t.Fatalf("first create: %v", err)
	}
	ops[0].Write = newResource(t, newID(trackType, "blue-in-green"), "Another take")
	_, err := f.service.Batch(ctxFor(t), ops)
	expectCode(t, "second create-only write", err, codes.Aborted)
	if !errors.Is(err, store.ErrCASFailure) {
		t.Errorf("error %v is not a CAS failure", err)
	}
	stored, err := f.read(t, newID(trackType, "blue-in-green"))
	if err != nil || titleOf(t, stored) != "Blue in Green" {
		t.Errorf("the refused create changed the record: %v %v", stored, err)
	}
}

// TestListEachServesBackendsThatListAllAtOnce runs ListEach on the memory
// backend, which has no ListEach of its own: the service hands out List's
// resources in order, and a function's error stops it and comes back as is.
func TestListEachServesBackendsThatListAllAtOnce(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	for _, name := range []string{"a.one", "a.two", "b.three"} {
		f.write(t, newResource(t, newID(trackType, name), name))
	}
	var names []string
	err := f.service.ListEach(ctxFor(t), store.StrongConsistency, trackType, projectTenancy, "a.", func(res *pbresource.Resource) error {
		names = append(names, res.GetId().GetName())
		return nil
	})
	if err != nil || strings.Join(names, ",") != "a.one,a.two" {
		t.Fatalf("ListEach yielded %v, %v; want a.one, a.two", names, err)
	}
	stop := errors.New("enough")
	calls := 0
	err = f.service.ListEach(ctxFor(t), store.StrongConsistency, trackType, projectTenancy, "", func(*pbresource.Resource) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("ListEach returned %v after %d calls; want the function's error after the first", err, calls)
	}
	err = f.service.ListEach(ctxFor(t), store.StrongConsistency, &pbresource.Type{Group: "music"}, projectTenancy, "", func(*pbresource.Resource) error { return nil })
	expectCode(t, "type without a kind", err, codes.InvalidArgument)
}
