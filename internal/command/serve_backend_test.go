package command

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/proto/pbresource"
)

func TestOpenBackendEachKind(t *testing.T) {
	t.Parallel()
	server := etcdtest.Start(t)
	specs := map[string]string{
		"sqlite": "sqlite://" + filepath.Join(t.TempDir(), "state.db"),
		"etcd":   "etcd://" + strings.TrimPrefix(server.Endpoint, "http://"),
	}
	for kind, spec := range specs {
		t.Run(kind, func(t *testing.T) {
			backend, err := openBackend(spec)
			if err != nil {
				t.Fatalf("openBackend(%q): %v", spec, err)
			}
			defer backend.Close()
			id := &pbresource.ID{Name: "probe", Type: &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "Probe"},
				Tenancy: &pbresource.Tenancy{Partition: "p", Namespace: "w"}}
			ctx := context.Background()
			written, err := backend.WriteCAS(ctx, &pbresource.Resource{Id: id})
			if err != nil {
				t.Fatal(err)
			}
			read, err := backend.Read(ctx, store.StrongConsistency, id)
			if err != nil || read.GetVersion() != written.GetVersion() {
				t.Fatalf("read back %v, %v; wrote version %q", read, err, written.GetVersion())
			}
		})
	}
	for _, bad := range []string{"postgres://x", "sqlite://", "nothing"} {
		if _, err := openBackend(bad); err == nil {
			t.Errorf("openBackend(%q) succeeded", bad)
		}
	}
}
