package command

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// providerChildren lists the provider plugin processes this test process
// started that are still running, by process id.
func providerChildren(t *testing.T) map[int]string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc to list processes from: %v", err)
	}
	self := strconv.Itoa(os.Getpid())
	found := map[int]string{}
	for _, entry := range entries {
		pid, err := strconv.Atoi(entry.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", entry.Name(), "stat"))
		if err != nil {
			continue // gone already
		}
		// The fields after the command name, which is in parentheses and
		// may hold spaces: state, then the parent's process id.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 || fields[1] != self || fields[0] == "Z" {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", entry.Name(), "cmdline"))
		if name := filepath.Base(strings.SplitN(string(cmdline), "\x00", 2)[0]); strings.HasPrefix(name, "terraform-provider-") {
			found[pid] = name
		}
	}
	return found
}

// assertNoProviderLeft fails the test when a provider process started
// since before was listed is still running a few seconds later.
func assertNoProviderLeft(t *testing.T, what string, before map[int]string) {
	t.Helper()
	var left map[int]string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left = map[int]string{}
		for pid, name := range providerChildren(t) {
			if _, old := before[pid]; !old {
				left[pid] = name
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("%s left provider processes running: %v", what, left)
	}
}
