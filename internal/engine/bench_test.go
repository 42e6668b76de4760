package engine

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkApply1000 creates 1,000 tpsdk_widget instances, half of them
// reading the other half, at several parallelism settings: the figures
// DefaultParallelism was chosen from (bench/README.md). Each iteration plans
// and applies into a fresh store and cloud; only the apply is timed.
//
//	go test -run '^$' -bench Apply1000 -benchtime 1x ./internal/engine
func BenchmarkApply1000(b *testing.B) {
	for _, parallelism := range []int{4, 8, 10, 16, 32} {
		b.Run(fmt.Sprintf("parallelism=%d", parallelism), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				h := newHarness(b)
				h.writeConfig(map[string]string{"main.tf": benchConfig(h.cloud)})
				plan := h.plan(PlanOpts{})
				e := h.engine(nil)
				e.opts.Parallelism = parallelism
				stop, peak := sampleHeap()
				b.StartTimer()
				start := time.Now()
				if ds := e.Apply(b.Context(), plan); ds.HasErrors() {
					b.Fatal(ds.Err())
				}
				elapsed := time.Since(start)
				b.StopTimer()
				stop()
				b.ReportMetric(elapsed.Seconds(), "apply-s")
				b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
				_ = e.Close()
			}
		})
	}
}

func benchConfig(cloud string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, `
terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
  }
}
provider "tpsdk" {
  root_dir = %q
}
resource "tpsdk_widget" "base" {
  count = 500
  name  = "base-${count.index}"
}
resource "tpsdk_widget" "dependent" {
  count  = 500
  name   = "dep-${count.index}"
  labels = { base = tpsdk_widget.base[count.index].id }
}
`, cloud)
	return sb.String()
}

// sampleHeap records the largest in-use heap seen every 10ms until stop.
func sampleHeap() (stop func(), peak *atomic.Uint64) {
	peak = &atomic.Uint64{}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-finished }, peak
}
