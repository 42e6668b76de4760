package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The garbage collector lets the heap grow by GOGC percent of what is live
// before it collects: at Go's default of 100, that doubling, not the
// instances, is most of a run's peak memory. Terrane collects at 70 %
// growth: a plan allocates little enough (no stored object is decoded only
// to be replaced, no value without marks is rebuilt to unmark it) that the
// extra collections cost no more than the default did before those
// savings, and a no-change plan of 5,000 null- and random-like instances
// peaks about 12 MiB lower. Once the live heap is large the growth target
// shrinks further: a large run spends a little more time collecting and
// needs far less memory. A GOGC the user set is left alone.
var gcSteps = []struct {
	liveBytes uint64
	percent   int
}{
	{512 << 20, 25},
	{128 << 20, 50},
	{0, 70},
}

const liveHeapMetric = "/gc/heap/live:bytes"

// governMemory adjusts the collector's growth target to the live heap
// until the returned function is called.
func governMemory() (stop func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	done := make(chan struct{})
	current := gcSteps[len(gcSteps)-1].percent
	debug.SetGCPercent(current)
	go func() {
		sample := []metrics.Sample{{Name: liveHeapMetric}}
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
