package scale

import (
	"time"

	"github.com/terrane/terrane/bench/benchenv"
)

// usage is what one terrane run cost.
type usage struct {
	wall time.Duration
	// cpu is user+system time of Terrane and every process it waited for
	// (the providers), from wait4.
	cpu time.Duration
	// providerCPU is the providers' share of cpu, sampled from /proc.
	providerCPU time.Duration
	// terranePeakKiB is Terrane's own peak resident set (VmHWM).
	terranePeakKiB int64
	// providerPeakKiB is the largest peak resident set of any one provider
	// process the run started.
	providerPeakKiB int64
}

// runMeasured runs the terrane binary with args in dir and measures it.
// stdout and stderr are returned for diagnostics.
func runMeasured(binary, dir string, env []string, args ...string) (usage, string, error) {
	m, out, err := benchenv.Run(binary, dir, env, args...)
	return usage{wall: m.Wall, cpu: m.CPU, providerCPU: m.ChildCPU, terranePeakKiB: m.RootPeakKiB, providerPeakKiB: m.ChildPeakKiB}, out, err
}

var tail = benchenv.Tail
