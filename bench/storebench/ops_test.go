package storebench

import (
	"context"
	"fmt"
	"testing"

	"github.com/terrane/terrane/internal/store"
)

// BenchmarkWriteSingle creates one record per durable commit.
func BenchmarkWriteSingle(b *testing.B) {
	run(b, func(b *testing.B, backend store.Backend) {
		for i := 0; b.Loop(); i++ {
			if _, err := backend.WriteCAS(context.Background(), record(b, fmt.Sprintf("null_resource.single[%d]", i))); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
	})
}

// BenchmarkWriteBatch100 commits 100 records per Batch, as apply commits the
// intents of the calls it is about to start.
func BenchmarkWriteBatch100(b *testing.B) {
	run(b, func(b *testing.B, backend store.Backend) {
		for i := 0; b.Loop(); i++ {
			ops := make([]store.Op, 100)
			for k := range ops {
				ops[k] = store.Op{Kind: store.OpWrite, Resource: record(b, fmt.Sprintf("null_resource.batch[%d]", i*100+k))}
			}
			if _, err := backend.Batch(context.Background(), ops); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*100)/b.Elapsed().Seconds(), "writes/s")
	})
}

// BenchmarkRead reads records at random from 10k, strongly consistent.
func BenchmarkRead(b *testing.B) {
	run(b, func(b *testing.B, backend store.Backend) {
		fill(b, backend, "null_resource.r", 10_000)
		id := record(b, "").Id
		for i := 0; b.Loop(); i++ {
			id.Name = fmt.Sprintf("null_resource.r%d", (i*7919)%10_000)
			if _, err := backend.Read(context.Background(), store.StrongConsistency, id); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
	})
}

// BenchmarkList100k lists a workspace of 100,000 records.
func BenchmarkList100k(b *testing.B) {
	run(b, func(b *testing.B, backend store.Backend) {
		fill(b, backend, "null_resource.l", 100_000)
		for b.Loop() {
			listed, err := backend.List(context.Background(), store.StrongConsistency, instanceType, workspace, "")
			if err != nil || len(listed) != 100_000 {
				b.Fatalf("listed %d records (%v), want 100000", len(listed), err)
			}
		}
	})
}

// BenchmarkWatchFanout100 writes one record per iteration and waits until
// each of 100 watchers has received it.
func BenchmarkWatchFanout100(b *testing.B) {
	run(b, func(b *testing.B, backend store.Backend) {
		ctx := context.Background()
		watches := make([]store.Watch, 100)
		for i := range watches {
			w, err := backend.WatchList(ctx, instanceType, workspace, "")
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			if ev, err := w.Next(ctx); err != nil || ev.Kind != store.EventEndOfSnapshot {
				b.Fatalf("watch %d: %v, %v", i, ev.Kind, err)
			}
			watches[i] = w
		}
		for i := 0; b.Loop(); i++ {
			if _, err := backend.WriteCAS(ctx, record(b, fmt.Sprintf("null_resource.w[%d]", i))); err != nil {
				b.Fatal(err)
			}
			for _, w := range watches {
				if _, err := w.Next(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N*100)/b.Elapsed().Seconds(), "events/s")
	})
}
