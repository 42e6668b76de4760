package etcd_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/store/storetest"
	"github.com/terrane/terrane/proto/pbresource"
	"google.golang.org/protobuf/types/known/anypb"
)

var prefixCounter atomic.Int64

// newBackend returns a backend with a key prefix of its own, so tests can
// share one server without seeing each other's records.
func newBackend(t *testing.T, server *etcdtest.Server, opts etcd.Options) *etcd.Backend {
	t.Helper()
	opts.Prefix = fmt.Sprintf("/test-%d/", prefixCounter.Add(1))
	b, err := etcd.Open([]string{server.Endpoint}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestConformance(t *testing.T) {
	server := etcdtest.Start(t)
	storetest.Run(t, func(t *testing.T) store.Backend { return newBackend(t, server, etcd.Options{}) })
}

func instance(name string) *pbresource.Resource {
	return &pbresource.Resource{Id: &pbresource.ID{
		Type:    &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"},
		Tenancy: &pbresource.Tenancy{Partition: "proj", Namespace: "default"},
		Name:    name, Uid: "uid-" + name,
	}}
}

func TestBatchAboveTransactionLimitIsCheckedBeforeWriting(t *testing.T) {
	server := etcdtest.Start(t)
	b := newBackend(t, server, etcd.Options{MaxTxnOps: 16})
	ctx := context.Background()
	var ops []store.Op
	for i := range 100 {
		ops = append(ops, store.Op{Kind: store.OpWrite, Resource: instance(fmt.Sprintf("null_resource.n[%d]", i))})
	}
	stale := instance("null_resource.n[90]")
	stale.Version = "1"
	failing := append(append([]store.Op{}, ops[:90]...), store.Op{Kind: store.OpWrite, Resource: stale})
	_, err := b.Batch(ctx, failing)
	var batchErr *store.BatchError
	if !errors.As(err, &batchErr) || batchErr.Index != 90 {
		t.Fatalf("batch with a stale op at 90: %v, want *BatchError at 90", err)
	}
	if listed, _ := b.List(ctx, store.StrongConsistency, stale.Id.Type, stale.Id.Tenancy, ""); len(listed) != 0 {
		t.Fatalf("a rejected batch wrote %d records", len(listed))
	}
	out, err := b.Batch(ctx, ops)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := b.List(ctx, store.StrongConsistency, stale.Id.Type, stale.Id.Tenancy, "null_resource.")
	if err != nil || len(listed) != 100 || len(out) != 100 {
		t.Fatalf("after a 100-op batch over a 16-op limit: listed %d (%v), returned %d; want 100", len(listed), err, len(out))
	}
}

func TestWatchSurvivesServerRestart(t *testing.T) {
	server := etcdtest.Start(t)
	b := newBackend(t, server, etcd.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := instance("null_resource.a")
	w, err := b.WatchList(ctx, res.Id.Type, res.Id.Tenancy, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if ev, err := w.Next(ctx); err != nil || ev.Kind != store.EventEndOfSnapshot {
		t.Fatalf("first event %v, %v; want EndOfSnapshot", ev.Kind, err)
	}
	var versions []string
	for i := range 6 {
		if i == 3 {
			server.Restart(t)
		}
		written, err := writeRetrying(ctx, b, res)
		if err != nil {
			t.Fatal(err)
		}
		res.Version = written.Version
		versions = append(versions, written.Version)
	}
	for _, want := range versions {
		ev, err := w.Next(ctx)
		if err != nil {
			t.Fatalf("watch after restart: %v", err)
		}
		if ev.Resource.GetVersion() != want {
			t.Fatalf("watch event at Version %s, want %s (all of %v, in order, once)", ev.Resource.GetVersion(), want, versions)
		}
	}
	quiet, stop := context.WithTimeout(ctx, 500*time.Millisecond)
	defer stop()
	if ev, err := w.Next(quiet); err == nil {
		t.Fatalf("duplicate event after restart: %v", ev.Resource.GetVersion())
	}
}

// writeRetrying retries a write while the restarted server comes back; a
// CAS failure means an earlier attempt did land, so it reads back the result.
func writeRetrying(ctx context.Context, b *etcd.Backend, res *pbresource.Resource) (*pbresource.Resource, error) {
	for {
		attemptCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		written, err := b.WriteCAS(attemptCtx, res)
		cancel()
		if err == nil {
			return written, nil
		}
		if ctx.Err() != nil || errors.Is(err, store.ErrCASFailure) {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestClaim(t *testing.T) {
	server := etcdtest.Start(t)
	opts := etcd.Options{Prefix: "/claims-test/"}
	first, err := etcd.Open([]string{server.Endpoint}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := etcd.Open([]string{server.Endpoint}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	ctx := context.Background()
	claim, err := first.Claim(ctx, "run/prod", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := second.Claim(ctx, "run/prod", 2*time.Second); !errors.Is(err, etcd.ErrClaimed) {
		t.Fatalf("second claim: %v, want ErrClaimed", err)
	}
	if err := claim.Release(ctx); err != nil {
		t.Fatal(err)
	}
	again, err := second.Claim(ctx, "run/prod", 2*time.Second)
	if err != nil {
		t.Fatalf("claim after release: %v", err)
	}
	// A holder that stops renewing loses the claim within its TTL.
	_ = second.Close()
	select {
	case <-again.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("claim not reported lost after its backend closed")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		taken, err := first.Claim(ctx, "run/prod", 2*time.Second)
		if err == nil {
			_ = taken.Release(ctx)
			return
		}
		if !errors.Is(err, etcd.ErrClaimed) || time.Now().After(deadline) {
			t.Fatalf("claim of a lapsed holder's key: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestBatchFillsEachTransaction writes batches to a server that allows 16
// operations per transaction: creates cost two operations each (the record
// and its owner index entry), updates one, so a transaction carries eight
// creates or sixteen updates, and none is refused for having too many.
func TestBatchFillsEachTransaction(t *testing.T) {
	server := etcdtest.StartWith(t, "--max-txn-ops=16")
	b := newBackend(t, server, etcd.Options{MaxTxnOps: 16})
	owner := &pbresource.ID{Type: &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "Workspace"},
		Tenancy: &pbresource.Tenancy{Partition: "proj", Namespace: "default"}, Name: "default", Uid: "uid-ws"}
	var ops []store.Op
	for i := range 64 {
		res := instance(fmt.Sprintf("null_resource.n[%d]", i))
		res.Owner = owner
		ops = append(ops, store.Op{Kind: store.OpWrite, Resource: res})
	}
	transactions := func(out []*pbresource.Resource) int {
		versions := map[string]bool{}
		for _, res := range out {
			versions[res.GetVersion()] = true
		}
		return len(versions)
	}
	created, err := b.Batch(t.Context(), ops)
	if err != nil {
		t.Fatal(err)
	}
	if n := transactions(created); n != 8 {
		t.Errorf("64 creates took %d transactions, want 8", n)
	}
	for i, res := range created {
		ops[i].Resource = res
	}
	updated, err := b.Batch(t.Context(), ops)
	if err != nil {
		t.Fatal(err)
	}
	if n := transactions(updated); n != 4 {
		t.Errorf("64 updates took %d transactions, want 4", n)
	}
}

// TestBatchOfLargeRecordsStaysUnderTheRequestLimit writes records whose
// sum is several times etcd's default request limit (1.5 MiB) in one
// batch: the transactions are cut by size as well as by count.
func TestBatchOfLargeRecordsStaysUnderTheRequestLimit(t *testing.T) {
	server := etcdtest.Start(t)
	b := newBackend(t, server, etcd.Options{})
	var ops []store.Op
	for i := range 48 {
		res := instance(fmt.Sprintf("null_resource.big[%d]", i))
		res.Data = &anypb.Any{TypeUrl: "example.com/blob", Value: make([]byte, 128<<10)}
		ops = append(ops, store.Op{Kind: store.OpWrite, Resource: res})
	}
	written, err := b.Batch(t.Context(), ops)
	if err != nil {
		t.Fatalf("a 6 MiB batch: %v", err)
	}
	// 6 MiB cannot go in one 1.5 MiB request: the batch was cut into
	// several transactions, and every record is whole in the store.
	versions := map[string]bool{}
	for _, res := range written {
		versions[res.GetVersion()] = true
	}
	if len(versions) < 4 {
		t.Errorf("the batch took %d transactions, want at least 4 of at most 1.5 MiB", len(versions))
	}
	for _, op := range ops {
		got, err := b.Read(t.Context(), store.StrongConsistency, op.Resource.Id)
		if err != nil {
			t.Fatalf("reading %s back: %v", op.Resource.Id.Name, err)
		}
		if n := len(got.GetData().GetValue()); n != 128<<10 {
			t.Errorf("%s holds %d bytes of data, want %d", op.Resource.Id.Name, n, 128<<10)
		}
	}
}
