package scale

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/terrane/terrane/internal/testing/procstat"
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
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	m, waitErr := procstat.Run(cmd)
	u := usage{wall: m.Wall, cpu: m.CPU, providerCPU: m.ChildCPU, terranePeakKiB: m.RootPeakKiB, providerPeakKiB: m.ChildPeakKiB}
	if waitErr != nil {
		return u, out.String(), fmt.Errorf("terrane %s: %w\n%s", strings.Join(args, " "), waitErr, tail(out.String(), 4000))
	}
	return u, out.String(), nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
