package journal

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
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
			if peak := peakRSSMiB(); peak > 0 {
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

// peakRSSMiB is the process's peak resident set size (VmHWM) in MiB, or 0
// where /proc does not tell.
func peakRSSMiB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if rest, ok := strings.CutPrefix(scanner.Text(), "VmHWM:"); ok {
			kib, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return 0
			}
			return kib / 1024
		}
	}
	return 0
}
