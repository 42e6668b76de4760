package journal

import (
	"github.com/terrane/terrane/internal/testing/procstat"

	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/states"
)

// BenchmarkGroupCommit measures one provider call's journal traffic (an
// intent, then its result) for many instances made by N concurrent callers
// on SQLite with fsync on every commit. One op is one instance. It reports
// commits per second, records per commit and the process's peak resident
// memory.
//
//	go test -run '^$' -bench GroupCommit ./internal/engine/journal/
func BenchmarkGroupCommit(b *testing.B) {
	for _, callers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
			j := New(openStore(b, newStorePath(b)), Options{RunID: "01BENCH"})
			defer j.Close()
			intent := plannedIntent(b, states.IntentCreate, "bench")
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for range callers {
				wg.Go(func() {
					for {
						i := next.Add(1) - 1
						if i >= int64(b.N) {
							return
						}
						if err := beginAndFinish(b, j, int(i), intent); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			stats := j.Stats()
			b.ReportMetric(float64(stats.Commits)/elapsed.Seconds(), "commits/s")
			b.ReportMetric(float64(stats.Records)/float64(max(stats.Commits, 1)), "records/commit")
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "instances/s")
			if peak := peakRSSMiB(os.Getpid()); peak > 0 {
				b.ReportMetric(peak, "peak-RSS-MiB")
			}
		})
	}
}

func beginAndFinish(b *testing.B, j *Journal, i int, intent *states.Intent) error {
	ctx := b.Context()
	addr := mustAddr(b, fmt.Sprintf("tpf_thing.n[%d]", i))
	began, err := j.BeginCall(ctx, addr, testProviderConfig, &states.ResourceInstance{Intent: intent}, nil)
	if err != nil {
		return err
	}
	_, err = j.FinishCall(ctx, addr, testProviderConfig, withObject(fmt.Sprintf(`{"id":"%d","name":"bench"}`, i)), began)
	return err
}

// peakRSSMiB is a process's peak resident set size in MiB, or 0 where
// /proc does not tell.
func peakRSSMiB(pid int) float64 {
	kib, _ := procstat.PeakRSSKiB(pid)
	return float64(kib) / 1024
}
