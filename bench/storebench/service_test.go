package storebench

import (
	"context"
	"fmt"
	"testing"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/store"
)

// BenchmarkServiceBatch2000 creates 2,000 records in one resourceservice
// Batch and then deletes them in another, as apply commits intents and a
// destroy removes a workspace's instances: one op is one create and one
// delete. It measures the service's per-record work (reading what exists,
// Uid and Generation rules) on top of the backend's commit.
func BenchmarkServiceBatch2000(b *testing.B) {
	run(b, func(b *testing.B, backend store.Backend) {
		registry := resourceservice.NewRegistry()
		if err := registry.Register(resourceservice.Registration{Type: instanceType}); err != nil {
			b.Fatal(err)
		}
		service := resourceservice.New(backend, registry)
		const size = 2000
		for round := 0; b.Loop(); round++ {
			writes := make([]resourceservice.BatchOp, size)
			deletes := make([]resourceservice.BatchOp, size)
			for k := range writes {
				res := record(b, fmt.Sprintf("null_resource.svc[%d]", round*size+k))
				res.Id.Uid, res.Generation = "", ""
				writes[k] = resourceservice.BatchOp{Write: res, CreateOnly: true}
				deletes[k] = resourceservice.BatchOp{Delete: res.Id}
			}
			if _, err := service.Batch(context.Background(), writes); err != nil {
				b.Fatal(err)
			}
			if _, err := service.Batch(context.Background(), deletes); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N*size)/b.Elapsed().Seconds(), "records/s")
	})
}
