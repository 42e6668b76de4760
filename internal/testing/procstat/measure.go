package procstat

import (
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

// Usage is what one run of a command cost.
type Usage struct {
	Wall time.Duration
	// CPU is user+system time of the command and every process it waited
	// for (its children, such as provider processes), from wait4.
	CPU time.Duration
	// ChildCPU is the direct children's share of CPU, sampled from /proc.
	ChildCPU time.Duration
	// RootPeakKiB is the command's own peak resident set (VmHWM).
	RootPeakKiB int64
	// ChildPeakKiB is the largest peak resident set of any one direct
	// child.
	ChildPeakKiB int64
	// TreePeakKiB is the largest resident set of the command and its
	// direct children together seen at one sample.
	TreePeakKiB int64
}

// sampleEvery is how often the processes are looked at; a peak figure
// (VmHWM) is kept by the kernel, so sampling only has to see each process
// once before it exits.
const sampleEvery = 50 * time.Millisecond

// Run starts cmd, waits for it and measures it. cmd's Stdout and Stderr
// are the caller's to set.
func Run(cmd *exec.Cmd) (Usage, error) {
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Usage{}, err
	}
	done := make(chan struct{})
	sampled := make(chan treeSamples, 1)
	go func() { sampled <- sampleTree(cmd.Process.Pid, done) }()
	waitErr := cmd.Wait()
	wall := time.Since(start)
	close(done)
	samples := <-sampled
	u := Usage{Wall: wall, RootPeakKiB: samples.rootPeakKiB, TreePeakKiB: samples.treePeakKiB}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for _, p := range samples.children {
		u.ChildCPU += p.cpu
		u.ChildPeakKiB = max(u.ChildPeakKiB, p.peakKiB)
	}
	return u, waitErr
}

type processSample struct {
	peakKiB int64
	cpu     time.Duration
}

type treeSamples struct {
	rootPeakKiB int64
	treePeakKiB int64
	children    map[int]processSample
}

// sampleTree follows the root process and its direct children until done,
// keeping the last figures seen for each.
func sampleTree(root int, done <-chan struct{}) treeSamples {
	out := treeSamples{children: map[int]processSample{}}
	ticker := time.NewTicker(sampleEvery)
	defer ticker.Stop()
	for {
		if kb, ok := PeakRSSKiB(root); ok {
			out.rootPeakKiB = max(out.rootPeakKiB, kb)
		}
		tree, _ := statusKiB(root, "VmRSS:")
		for _, pid := range childPIDs(root) {
			s := out.children[pid]
			if kb, ok := PeakRSSKiB(pid); ok {
				s.peakKiB = max(s.peakKiB, kb)
			}
			if kb, ok := statusKiB(pid, "VmRSS:"); ok {
				tree += kb
			}
			if cpu, ok := ProcessCPU(pid); ok {
				s.cpu = max(s.cpu, cpu)
			}
			out.children[pid] = s
		}
		out.treePeakKiB = max(out.treePeakKiB, tree)
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

// ProcessCPU is a process's user+system time so far, from /proc/PID/stat;
// ok is false where /proc cannot tell.
func ProcessCPU(pid int) (time.Duration, bool) {
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
