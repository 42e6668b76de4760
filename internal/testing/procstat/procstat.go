// Package procstat reads the process figures Terrane's benchmarks report —
// a process's peak resident memory, a command's wall and CPU time and its
// children's — from Linux's /proc, so each benchmark measures the same way.
package procstat

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PeakRSSKiB is the peak resident set size (VmHWM) of process pid in KiB;
// ok is false where /proc cannot tell (the process is gone, or this is not
// Linux).
func PeakRSSKiB(pid int) (kib int64, ok bool) {
	return statusKiB(pid, "VmHWM:")
}

// statusKiB reads one KiB figure (VmHWM:, VmRSS:) of /proc/PID/status.
func statusKiB(pid int, field string) (kib int64, ok bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if rest, found := strings.CutPrefix(scanner.Text(), field); found {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kib, err == nil
		}
	}
	return 0, false
}

// ResetPeak starts a new peak for process pid (writing 5 to clear_refs), so
// the next PeakRSSKiB covers only what happens after it. Failures are
// ignored: the figure then covers the process's whole life.
func ResetPeak(pid int) {
	_ = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}

// RSSKiB is the current resident set size (VmRSS) of process pid in KiB.
func RSSKiB(pid int) (kib int64, ok bool) {
	return statusKiB(pid, "VmRSS:")
}

// Children lists the processes whose parent is pid.
func Children(pid int) []int { return childPIDs(pid) }
