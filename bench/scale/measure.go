package scale

import (
	"github.com/terrane/terrane/internal/testing/procstat"

	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
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

// sampleEvery is how often the provider processes are looked at; a peak
// figure (VmHWM) is kept by the kernel, so sampling only has to see each
// process once before it exits.
const sampleEvery = 50 * time.Millisecond

// runMeasured runs the terrane binary with args in dir and measures it.
// stdout and stderr are returned for diagnostics.
func runMeasured(binary, dir string, env []string, args ...string) (usage, string, error) {
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return usage{}, "", err
	}
	done := make(chan struct{})
	sampled := make(chan processSamples, 1)
	go func() { sampled <- sampleTree(cmd.Process.Pid, done) }()
	waitErr := cmd.Wait()
	wall := time.Since(start)
	close(done)
	samples := <-sampled
	u := usage{wall: wall, terranePeakKiB: samples.rootPeakKiB}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for _, p := range samples.children {
		u.providerCPU += p.cpu
		u.providerPeakKiB = max(u.providerPeakKiB, p.peakKiB)
	}
	if waitErr != nil {
		return u, out.String(), fmt.Errorf("terrane %s: %w\n%s", strings.Join(args, " "), waitErr, tail(out.String(), 4000))
	}
	return u, out.String(), nil
}

type processSample struct {
	peakKiB int64
	cpu     time.Duration
}

type processSamples struct {
	rootPeakKiB int64
	children    map[int]processSample
}

// sampleTree follows the root process and its direct children until done,
// keeping the last figures seen for each.
func sampleTree(root int, done <-chan struct{}) processSamples {
	out := processSamples{children: map[int]processSample{}}
	ticker := time.NewTicker(sampleEvery)
	defer ticker.Stop()
	for {
		if kb, ok := procstat.PeakRSSKiB(root); ok {
			out.rootPeakKiB = max(out.rootPeakKiB, kb)
		}
		for _, pid := range childPIDs(root) {
			s := out.children[pid]
			if kb, ok := procstat.PeakRSSKiB(pid); ok {
				s.peakKiB = max(s.peakKiB, kb)
			}
			if cpu, ok := processCPU(pid); ok {
				s.cpu = max(s.cpu, cpu)
			}
			out.children[pid] = s
		}
		select {
		case <-done:
			return out
		case <-ticker.C:
		}
	}
}

// childPIDs lists the processes whose parent is pid.
func childPIDs(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, path := range tasks {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(src)) {
			if child, err := strconv.Atoi(field); err == nil {
				out = append(out, child)
			}
		}
	}
	return out
}

// clockTicksPerSecond is USER_HZ, 100 on every Linux architecture Go runs on.
const clockTicksPerSecond = 100

// processCPU is a process's user+system time from /proc/PID/stat.
func processCPU(pid int) (time.Duration, bool) {
	src, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name may hold spaces; fields are counted after its ')'.
	end := bytes.LastIndexByte(src, ')')
	if end < 0 {
		return 0, false
	}
	fields := strings.Fields(string(src[end+1:]))
	// fields[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * time.Second / clockTicksPerSecond, true
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
