package encrypted_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// BenchmarkCommitAndList measures what encryption adds to writing 2,000
// instance records in one batch and listing them back, against the same
// without encryption, on the memory backend so that only the encryption
// shows. Keys are derived once, before the timer starts: what is left is
// the cost per record.
func BenchmarkCommitAndList(b *testing.B) {
	for _, encrypt := range []bool{false, true} {
		b.Run(fmt.Sprintf("encrypted=%v", encrypt), func(b *testing.B) {
			var cipher encrypted.Cipher
			if encrypt {
				cipher = cipherFor(b, mainConfig)
			}
			records := instanceRecords(b, 2000)
			if cipher != nil {
				// Derive the keys (a fixed cost per run) before timing.
				warm := encrypted.New(memory.New(), cipher)
				if _, err := warm.WriteCAS(context.Background(), records[0]); err != nil {
					b.Fatal(err)
				}
				if _, err := warm.List(context.Background(), store.StrongConsistency, instanceType, nil, ""); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				var backend store.Backend = memory.New()
				if cipher != nil {
					backend = encrypted.New(backend, cipher)
				}
				ops := make([]store.Op, len(records))
				for i, res := range records {
					ops[i] = store.Op{Kind: store.OpWrite, Resource: res}
				}
				ctx := context.Background()
				if _, err := backend.Batch(ctx, ops); err != nil {
					b.Fatal(err)
				}
				if list, err := backend.List(ctx, store.StrongConsistency, instanceType, nil, ""); err != nil || len(list) != len(records) {
					b.Fatalf("listed %d, %v", len(list), err)
				}
			}
		})
	}
}

// instanceRecords are n resource instance records of about a kilobyte of
// attributes each.
func instanceRecords(b *testing.B, n int) []*pbresource.Resource {
	b.Helper()
	attrs := []byte(`{"id":"0123456789abcdef","name":"widget","labels":{"team":"platform"},"description":"` + strings.Repeat("x", 900) + `"}`)
	out := make([]*pbresource.Resource, n)
	for i := range out {
		name := fmt.Sprintf("tpsdk_widget.w[%d]", i)
		data, err := anypb.New(&recordsv1.ResourceInstance{Type: "tpsdk_widget", Name: "w", Mode: recordsv1.ResourceMode_RESOURCE_MODE_MANAGED,
			Provider: `provider["registry.terraform.io/terrane/tpsdk"]`, Current: &recordsv1.ObjectState{AttributesJson: attrs}})
		if err != nil {
			b.Fatal(err)
		}
		out[i] = &pbresource.Resource{Id: &pbresource.ID{Type: instanceType, Tenancy: &pbresource.Tenancy{Partition: "p", Namespace: "w"}, Name: name, Uid: "u"},
			Generation: "g", Data: data}
	}
	return out
}
