package storebench

import (
	"github.com/terrane/terrane/internal/testing/procstat"

	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/store/sqlite"
	"github.com/terrane/terrane/proto/pbresource"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/structpb"
)

var (
	instanceType = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"}
	workspace    = &pbresource.Tenancy{Partition: "bench", Namespace: "default"}
)

type backendCase struct {
	name string
	open func(b *testing.B) (store.Backend, func() int) // the backend and the pid of any server process
}

var (
	etcdOnce   sync.Once
	etcdServer *etcdtest.Server
	etcdRuns   int
)

func cases() []backendCase {
	return []backendCase{
		{"sqlite", func(b *testing.B) (store.Backend, func() int) {
			backend, err := sqlite.Open(filepath.Join(b.TempDir(), "state.db"), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return backend, func() int { return 0 }
		}},
		{"etcd", func(b *testing.B) (store.Backend, func() int) {
			server := etcdtest.Start(b)
			etcdRuns++
			backend, err := etcd.Open([]string{server.Endpoint}, etcd.Options{Prefix: fmt.Sprintf("/bench-%d/", etcdRuns)})
			if err != nil {
				b.Fatal(err)
			}
			return backend, server.Pid
		}},
	}
}

// record is a resource instance of a typical size: a dozen attributes.
func record(b *testing.B, name string) *pbresource.Resource {
	attributes, err := structpb.NewStruct(map[string]any{
		"id": name, "triggers": map[string]any{"a": "b"}, "keepers": nil, "byte_length": 8,
		"b64_std": "aGVsbG8gd29ybGQ=", "b64_url": "aGVsbG8gd29ybGQ", "dec": "123456789", "hex": "0a0b0c0d",
		"prefix": "bench-", "tags": []any{"x", "y", "z"}, "enabled": true, "count": 3,
	})
	if err != nil {
		b.Fatal(err)
	}
	data, err := anypb.New(attributes)
	if err != nil {
		b.Fatal(err)
	}
	return &pbresource.Resource{
		Id:   &pbresource.ID{Type: instanceType, Tenancy: workspace, Name: name, Uid: "01J0000000000000000000" + name},
		Data: data, Generation: "01J0000000000000000000GEN0",
	}
}

// fill writes count records in batches of 1000 (etcd splits them further).
func fill(b *testing.B, backend store.Backend, prefix string, count int) {
	for start := 0; start < count; start += 1000 {
		ops := make([]store.Op, 0, 1000)
		for i := start; i < min(start+1000, count); i++ {
			ops = append(ops, store.Op{Kind: store.OpWrite, Resource: record(b, fmt.Sprintf("%s%d", prefix, i))})
		}
		if _, err := backend.Batch(context.Background(), ops); err != nil {
			b.Fatal(err)
		}
	}
}

// run runs body once per backend, resetting and then reporting peak memory.
func run(b *testing.B, body func(b *testing.B, backend store.Backend)) {
	for _, tc := range cases() {
		b.Run(tc.name, func(b *testing.B) {
			backend, serverPid := tc.open(b)
			defer backend.Close()
			debug.FreeOSMemory() // drop what earlier benchmarks left, then measure from here
			resetPeak(os.Getpid())
			resetPeak(serverPid())
			body(b, backend)
			b.ReportMetric(float64(peakKB(os.Getpid()))/1024, "peak-MB")
			if pid := serverPid(); pid != 0 {
				b.ReportMetric(float64(peakKB(pid))/1024, "server-peak-MB")
			}
		})
	}
}

// resetPeak clears the process's VmHWM (Linux: writing 5 to clear_refs),
// so each benchmark reports its own peak, not an earlier one's.
func resetPeak(pid int) {
	if pid != 0 {
		procstat.ResetPeak(pid)
	}
}

func peakKB(pid int) int {
	kib, _ := procstat.PeakRSSKiB(pid)
	return int(kib)
}
