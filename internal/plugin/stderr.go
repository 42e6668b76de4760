package plugin

import (
	"bytes"
	"strings"
	"sync"
)

// The stderr tail keeps the last tailLines lines a provider wrote, and, once
// it panics, the panic message and the first panicLines lines of the stack:
// the message is what a bug report needs, and it scrolls out of a plain tail
// as the goroutine dump goes on.
const (
	tailLines  = 40
	panicLines = 60
)

// stderrTail is an io.Writer that remembers the end of a provider's stderr.
type stderrTail struct {
	mu      sync.Mutex
	partial []byte
	lines   []string // ring of the last tailLines lines
	next    int
	full    bool
	panic   []string
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	data := append(t.partial, p...)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		t.addLine(string(data[:i]))
		data = data[i+1:]
	}
	t.partial = append([]byte(nil), data...)
	return len(p), nil
}

func (t *stderrTail) addLine(line string) {
	if t.lines == nil {
		t.lines = make([]string, tailLines)
	}
	t.lines[t.next] = line
	t.next = (t.next + 1) % tailLines
	if t.next == 0 {
		t.full = true
	}
	switch {
	case t.panic == nil && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")):
		t.panic = []string{line}
	case t.panic != nil && len(t.panic) < panicLines:
		t.panic = append(t.panic, line)
	}
}

// String returns the panic if the provider panicked, else the last lines.
func (t *stderrTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.panic != nil {
		return strings.Join(t.panic, "\n")
	}
	var out []string
	if t.full {
		out = append(out, t.lines[t.next:]...)
	}
	out = append(out, t.lines[:t.next]...)
	if len(t.partial) > 0 {
		out = append(out, string(t.partial))
	}
	return strings.Join(out, "\n")
}
