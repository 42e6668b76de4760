package etcd

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/store/eventqueue"
	"github.com/terrane/terrane/proto/pbresource"
)

// A watch resuming from a revision etcd has compacted away cannot deliver
// what it missed; it must end with ErrWatchExpired rather than skip ahead.
func TestWatchFromCompactedRevisionExpires(t *testing.T) {
	server := etcdtest.Start(t)
	b := New(server.Client(t), Options{Prefix: "/compaction/"})
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := &pbresource.Resource{Id: &pbresource.ID{
		Type:    &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"},
		Tenancy: &pbresource.Tenancy{Partition: "proj", Namespace: "default"}, Name: "null_resource.a", Uid: "u"}}
	var firstRevision int64
	for range 3 {
		written, err := b.WriteCAS(ctx, res)
		if err != nil {
			t.Fatal(err)
		}
		res.Version = written.Version
		if firstRevision == 0 {
			firstRevision, _ = strconv.ParseInt(written.Version, 10, 64)
		}
	}
	latest, _ := strconv.ParseInt(res.Version, 10, 64)
	if _, err := b.client.Compact(ctx, latest); err != nil {
		t.Fatal(err)
	}
	queue := eventqueue.New(nil)
	filter := watchFilter{resType: res.Id.Type, tenancy: res.Id.Tenancy}
	go b.follow(ctx, queue, filter, b.keys.listPrefix(res.Id.Type, res.Id.Tenancy, ""), firstRevision+1)
	if _, err := queue.Next(ctx); !errors.Is(err, store.ErrWatchExpired) {
		t.Fatalf("watch from a compacted revision: %v, want ErrWatchExpired", err)
	}
}
