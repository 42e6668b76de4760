package storetest

import (
	"fmt"
	"testing"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// testReadMany reads more resources than any backend puts in one request,
// mixing present and absent names, a repeated name, another Uid and another
// GroupVersion, and expects each answer in its place.
func testReadMany(t *testing.T, b store.Backend) {
	const count = 450
	var ops []store.Op
	for i := range count {
		ops = append(ops, store.Op{Kind: store.OpWrite, Resource: resource(t, id(typeV1, defaultTenancy, fmt.Sprintf("null_resource.m[%d]", i)), fmt.Sprint(i))})
	}
	if _, err := b.Batch(ctxFor(t), ops); err != nil {
		t.Fatal(err)
	}
	var ids []*pbresource.ID
	var want []string // the payload expected at each index, "" for absent
	for i := count - 1; i >= 0; i-- {
		ids = append(ids, id(typeV1, defaultTenancy, fmt.Sprintf("null_resource.m[%d]", i)),
			id(typeV1, defaultTenancy, fmt.Sprintf("null_resource.absent[%d]", i)))
		want = append(want, fmt.Sprint(i), "")
	}
	otherUid := id(typeV1, defaultTenancy, "null_resource.m[7]")
	otherUid.Uid = "some-other-uid"
	ids = append(ids, otherUid, id(typeV2, defaultTenancy, "null_resource.m[8]"),
		id(typeV1, defaultTenancy, "null_resource.m[0]"), id(typeV1, tenancy("proj", "other"), "null_resource.m[1]"))
	want = append(want, "7", "8", "0", "")

	got, err := b.ReadMany(ctxFor(t), store.StrongConsistency, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(ids) {
		t.Fatalf("ReadMany returned %d answers for %d IDs", len(got), len(ids))
	}
	for i, res := range got {
		switch {
		case want[i] == "" && res != nil:
			t.Fatalf("ReadMany[%d] (%s) = %v, want nil: nothing is stored there", i, ids[i].GetName(), res)
		case want[i] != "" && (res == nil || payloadOf(t, res) != want[i] || res.GetVersion() == ""):
			t.Fatalf("ReadMany[%d] (%s) = %v, want the stored resource with payload %q", i, ids[i].GetName(), res, want[i])
		}
	}
	if got[2*count+1].GetId().GetType().GetGroupVersion() != "v1" {
		t.Fatalf("ReadMany with another GroupVersion returned %v, want the resource as stored (v1)", got[2*count+1])
	}
	got[len(got)-2].Version = "changed by the caller"
	if again, err := b.ReadMany(ctxFor(t), store.StrongConsistency, ids[len(ids)-2:len(ids)-1]); err != nil || again[0].GetVersion() == "changed by the caller" {
		t.Fatalf("a caller's change to a ReadMany answer reached the store: %v, %v", again, err)
	}
	if none, err := b.ReadMany(ctxFor(t), store.StrongConsistency, nil); err != nil || len(none) != 0 {
		t.Fatalf("ReadMany of no IDs: %v, %v; want nothing", none, err)
	}
}

// testBatchSeesEarlierOps deletes and re-creates one name, and creates and
// then updates another, in single batches: each operation's CAS check sees
// the operations before it.
func testBatchSeesEarlierOps(t *testing.T, b store.Backend) {
	existing := mustWrite(t, b, resource(t, id(typeV1, defaultTenancy, "null_resource.again"), "old"))
	out, err := b.Batch(ctxFor(t), []store.Op{
		{Kind: store.OpDelete, ID: existing.GetId(), Version: existing.GetVersion()},
		{Kind: store.OpWrite, Resource: resource(t, id(typeV1, defaultTenancy, "null_resource.again"), "new")},
	})
	if err != nil {
		t.Fatalf("delete then create of one name in a batch: %v", err)
	}
	read, err := b.Read(ctxFor(t), store.StrongConsistency, existing.GetId())
	if err != nil || payloadOf(t, read) != "new" || read.GetVersion() != out[1].GetVersion() {
		t.Fatalf("after delete then create: read %v, %v; want the new resource", read, err)
	}
	_, err = b.Batch(ctxFor(t), []store.Op{
		{Kind: store.OpWrite, Resource: resource(t, id(typeV1, defaultTenancy, "null_resource.twice"), "first")},
		{Kind: store.OpWrite, Resource: resource(t, id(typeV1, defaultTenancy, "null_resource.twice"), "second")},
	})
	expectErr(t, "two creates of one name in a batch", err, store.ErrCASFailure)
	if _, err := b.Read(ctxFor(t), store.StrongConsistency, id(typeV1, defaultTenancy, "null_resource.twice")); err == nil {
		t.Fatal("a failed batch left its first create behind")
	}
}
