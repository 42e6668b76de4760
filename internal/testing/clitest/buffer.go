package clitest

import (
	"bytes"
	"regexp"
	"sync"
	"testing"
	"time"
)

// SyncBuffer is a bytes.Buffer safe to read while a command writes it.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// WaitFor waits up to 15 seconds for buf to match pattern and returns the
// match.
func WaitFor(t testing.TB, what string, buf *SyncBuffer, pattern *regexp.Regexp) []string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if match := pattern.FindStringSubmatch(buf.String()); match != nil {
			return match
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s: no match for %s in output:\n%s", what, pattern, buf.String())
	return nil
}
