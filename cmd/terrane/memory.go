package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The garbage collector lets the heap grow to twice what is live before it
// collects (GOGC=100). For a plan of hundreds of thousands of instances
// that doubling, not the instances, is most of the peak memory, so once
// the live heap is large the growth target shrinks: a large run spends a
// little more time collecting and needs far less memory, and a small one
// is unaffected. A GOGC the user set is left alone.
var gcSteps = []struct {
	liveBytes uint64
	percent   int
}{
	{512 << 20, 25},
	{128 << 20, 50},
	{0, 100},
}

const liveHeapMetric = "/gc/heap/live:bytes"

// governMemory adjusts the collector's growth target to the live heap
// until the returned function is called.
func governMemory() (stop func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: liveHeapMetric}}
		current := 100
		ticker := time.NewTicker(200 * time.Millisecond)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return // this Go does not report it: leave the default
			}
			live := sample[0].Value.Uint64()
			for _, step := range gcSteps {
				if live >= step.liveBytes {
					if step.percent != current {
						debug.SetGCPercent(step.percent)
						current = step.percent
					}
					break
				}
			}
		}
	}()
	return func() { close(done) }
}
