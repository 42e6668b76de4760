package planfile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/terrane/terrane/internal/plans"
)

// BenchmarkCreateOpen writes and reads back a plan creating 10,000
// instances, reporting the file size.
func BenchmarkCreateOpen(b *testing.B) {
	change := encodeChange(b, testChange(b, "null_resource.n[0]", plans.Create, plans.ReasonNone))
	plan := &plans.Plan{Applyable: true, Complete: true}
	for i := range 10_000 {
		next := *change
		next.Addr = mustInstance(b, fmt.Sprintf("null_resource.n[%d]", i))
		next.PrevRunAddr = next.Addr
		plan.Changes.Resources = append(plan.Changes.Resources, &next)
	}
	path := filepath.Join(b.TempDir(), "tfplan")
	for b.Loop() {
		if err := Create(path, Contents{Plan: plan}); err != nil {
			b.Fatal(err)
		}
		reader, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := reader.ReadPlan(); err != nil {
			b.Fatal(err)
		}
		reader.Close()
	}
	info, _ := os.Stat(path)
	b.ReportMetric(float64(info.Size()), "file-bytes")
}
