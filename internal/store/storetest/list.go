package storetest

import (
	"errors"
	"maps"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

func seedListing(t *testing.T, b store.Backend) {
	for _, ten := range []*pbresource.Tenancy{tenancy("p1", "ns1"), tenancy("p1", "ns2"), tenancy("p2", "ns1")} {
		for _, name := range []string{"null_resource.a", "null_resource.b", "random_id.a"} {
			mustWrite(t, b, resource(t, id(typeV1, ten, name), name))
		}
		mustWrite(t, b, resource(t, id(otherType, ten, "null_resource.a"), "output"))
	}
}

func testListTenancyAndPrefix(t *testing.T, b store.Backend) {
	seedListing(t, b)
	tests := []struct {
		name    string
		tenancy *pbresource.Tenancy
		prefix  string
		want    []string
	}{
		{"exact", tenancy("p1", "ns1"), "", []string{"p1/ns1/null_resource.a", "p1/ns1/null_resource.b", "p1/ns1/random_id.a"}},
		{"prefix", tenancy("p1", "ns1"), "null_resource.", []string{"p1/ns1/null_resource.a", "p1/ns1/null_resource.b"}},
		{"whole name as prefix", tenancy("p1", "ns1"), "null_resource.a", []string{"p1/ns1/null_resource.a"}},
		{"no match", tenancy("p1", "ns1"), "aws_", nil},
		{"wildcard namespace", tenancy("p1", store.Wildcard), "random_id.", []string{"p1/ns1/random_id.a", "p1/ns2/random_id.a"}},
		{"wildcard partition", tenancy(store.Wildcard, "ns1"), "random_id.", []string{"p1/ns1/random_id.a", "p2/ns1/random_id.a"}},
		{"both wildcards", tenancy(store.Wildcard, store.Wildcard), "null_resource.b", []string{"p1/ns1/null_resource.b", "p1/ns2/null_resource.b", "p2/ns1/null_resource.b"}},
		{"unknown tenancy", tenancy("p3", store.Wildcard), "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			listed, err := b.List(ctxFor(t), store.StrongConsistency, typeV1, tc.tenancy, tc.prefix)
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Sorted(maps.Keys(names(listed)))
			if len(listed) != len(got) || !slices.Equal(got, tc.want) {
				t.Fatalf("List returned %v (%d resources), want %v", got, len(listed), tc.want)
			}
			for _, res := range listed {
				if res.GetId().GetType().GetKind() != typeV1.Kind || res.GetVersion() == "" {
					t.Fatalf("List returned %v, want stored %s resources", res, typeV1.Kind)
				}
			}
			if each, ok := b.(store.EachLister); ok {
				var yielded []*pbresource.Resource
				if err := each.ListEach(ctxFor(t), store.StrongConsistency, typeV1, tc.tenancy, tc.prefix, func(res *pbresource.Resource) error {
					yielded = append(yielded, res)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(yielded, listed, func(a, b *pbresource.Resource) bool { return proto.Equal(a, b) }) {
					t.Fatalf("ListEach yielded %v, want List's %v in its order", yielded, listed)
				}
			}
		})
	}
}

// testListEachStops checks that ListEach ends at the first error its
// function returns, with that error.
func testListEachStops(t *testing.T, b store.Backend) {
	each, ok := b.(store.EachLister)
	if !ok {
		t.Skip("the backend lists only all at once")
	}
	seedListing(t, b)
	stop := errors.New("enough")
	calls := 0
	err := each.ListEach(ctxFor(t), store.StrongConsistency, typeV1, tenancy(store.Wildcard, store.Wildcard), "", func(*pbresource.Resource) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("ListEach returned %v after %d calls; want the function's own error after the first", err, calls)
	}
}

func testListByOwner(t *testing.T, b store.Backend) {
	workspace := mustWrite(t, b, resource(t, id(workspaceType, defaultTenancy, "prod"), "ws"))
	owner := workspace.GetId()
	for _, name := range []string{"null_resource.a", "null_resource.b"} {
		res := resource(t, id(typeV1, defaultTenancy, name), name)
		res.Owner = owner
		mustWrite(t, b, res)
	}
	mustWrite(t, b, resource(t, id(typeV1, defaultTenancy, "unowned"), "x"))
	// Owned by an earlier workspace of the same name: another Uid.
	stale := resource(t, id(typeV1, defaultTenancy, "orphan"), "x")
	stale.Owner = &pbresource.ID{Type: owner.Type, Tenancy: owner.Tenancy, Name: owner.Name, Uid: "older-uid"}
	mustWrite(t, b, stale)

	owned, err := b.ListByOwner(ctxFor(t), owner)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(names(owned)))
	want := []string{"proj/default/null_resource.a", "proj/default/null_resource.b"}
	if !slices.Equal(got, want) || len(owned) != 2 {
		t.Fatalf("ListByOwner returned %v, want %v", got, want)
	}
	older, err := b.ListByOwner(ctxFor(t), stale.Owner)
	if err != nil || len(older) != 1 || older[0].GetId().GetName() != "orphan" {
		t.Fatalf("ListByOwner of the older Uid returned %v, %v; want only orphan", names(older), err)
	}
	// Deleted resources leave the owner index.
	if err := b.DeleteCAS(ctxFor(t), owned[0].GetId(), owned[0].GetVersion()); err != nil {
		t.Fatal(err)
	}
	owned, err = b.ListByOwner(ctxFor(t), owner)
	if err != nil || len(owned) != 1 {
		t.Fatalf("ListByOwner after delete: %v, %v; want one resource", names(owned), err)
	}
}

func testBatchAllOrNothing(t *testing.T, b store.Backend) {
	existing := mustWrite(t, b, resource(t, id(typeV1, defaultTenancy, "null_resource.existing"), "old"))
	ops := []store.Op{
		{Kind: store.OpWrite, Resource: resource(t, id(typeV1, defaultTenancy, "null_resource.new"), "new")},
		{Kind: store.OpWrite, Resource: withVersion(resource(t, existing.GetId(), "updated"), existing.GetVersion())},
		{Kind: store.OpDelete, ID: existing.GetId(), Version: "not-the-version"},
	}
	_, err := b.Batch(ctxFor(t), ops)
	var batchErr *store.BatchError
	if !errors.As(err, &batchErr) || batchErr.Index != 2 || !errors.Is(err, store.ErrCASFailure) {
		t.Fatalf("Batch with a stale delete: %v, want *BatchError at index 2 wrapping ErrCASFailure", err)
	}
	_, err = b.Read(ctxFor(t), store.StrongConsistency, id(typeV1, defaultTenancy, "null_resource.new"))
	expectErr(t, "create of a failed batch", err, store.ErrNotFound)
	read, err := b.Read(ctxFor(t), store.StrongConsistency, existing.GetId())
	if err != nil || payloadOf(t, read) != "old" || read.GetVersion() != existing.GetVersion() {
		t.Fatalf("update of a failed batch was applied: %v, %v", read, err)
	}

	wrongUid := resource(t, id(typeV1, defaultTenancy, "null_resource.existing"), "x")
	wrongUid.Id.Uid = "other"
	_, err = b.Batch(ctxFor(t), []store.Op{
		{Kind: store.OpWrite, Resource: resource(t, id(typeV1, defaultTenancy, "null_resource.new"), "new")},
		{Kind: store.OpWrite, Resource: withVersion(wrongUid, existing.GetVersion())},
	})
	if !errors.As(err, &batchErr) || batchErr.Index != 1 || !errors.Is(err, store.ErrWrongUid) {
		t.Fatalf("Batch with a wrong Uid: %v, want *BatchError at index 1 wrapping ErrWrongUid", err)
	}
}

func testBatchResults(t *testing.T, b store.Backend) {
	existing := mustWrite(t, b, resource(t, id(typeV1, defaultTenancy, "null_resource.gone"), "old"))
	ops := []store.Op{{Kind: store.OpDelete, ID: existing.GetId(), Version: existing.GetVersion()}}
	for _, name := range []string{"a", "b", "c"} {
		ops = append(ops, store.Op{Kind: store.OpWrite, Resource: resource(t, id(typeV1, defaultTenancy, "null_resource."+name), name)})
	}
	out, err := b.Batch(ctxFor(t), ops)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(ops) || out[0] != nil {
		t.Fatalf("Batch returned %d results (first %v), want %d with nil for the delete", len(out), out[0], len(ops))
	}
	for i, res := range out[1:] {
		if res.GetId().GetName() != ops[i+1].Resource.GetId().GetName() || res.GetVersion() == "" {
			t.Fatalf("result %d is %v, want the stored %s", i+1, res, ops[i+1].Resource.GetId().GetName())
		}
		read, err := b.Read(ctxFor(t), store.StrongConsistency, res.GetId())
		if err != nil || read.GetVersion() != res.GetVersion() {
			t.Fatalf("read of batch-written %s: %v, %v", res.GetId().GetName(), read, err)
		}
	}
	_, err = b.Read(ctxFor(t), store.StrongConsistency, existing.GetId())
	expectErr(t, "read of batch-deleted resource", err, store.ErrNotFound)
	if out, err := b.Batch(ctxFor(t), nil); err != nil || len(out) != 0 {
		t.Fatalf("empty Batch: %v, %v; want no results and no error", out, err)
	}
}
