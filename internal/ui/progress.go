package ui

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
)

// ProgressOptions tailor a ProgressHook.
type ProgressOptions struct {
	Color bool
	// StillInterval is how often a long operation reports that it is still
	// running; zero means every 10 seconds.
	StillInterval time.Duration
}

// ProgressHook reports refresh and apply progress as OpenTofu does, one
// whole line per event, each in bold ("null_resource.a: Creating...",
// "Still creating... [10s elapsed]", "Creation complete after 1s
// [id=…]"). It implements the engine's Hook interface and is safe for
// concurrent use: each line is written with a single Write under a lock, so
// lines from parallel operations never interleave.
type ProgressHook struct {
	out      io.Writer
	pal      palette
	interval time.Duration

	mu      sync.Mutex
	running map[string]*operation // by object name
	closed  bool
}

// operation is an apply call under way.
type operation struct {
	name    string // the object, as lines name it
	kind    operationKind
	idKey   string // the attribute naming the object before the call ("id", "name", …)
	idValue string
	started time.Time
	stop    chan struct{}
	done    chan struct{}
}

// NewProgressHook returns a hook that writes progress lines to w.
func NewProgressHook(w io.Writer, opts ProgressOptions) *ProgressHook {
	interval := opts.StillInterval
	if interval <= 0 {
		interval = 10 * time.Second
	}
	return &ProgressHook{out: w, pal: palette{enabled: opts.Color}, interval: interval, running: map[string]*operation{}}
}

// operationKind is what an apply call does, in the words its lines use.
type operationKind struct {
	starting, ongoing, finished string // "Creating", "creating", "Creation complete"
	showPriorID                 bool   // the object exists, so name it by its id
	ephemeral                   bool   // an ephemeral instance: no id, and an end line even on failure
}

var (
	creating   = operationKind{"Creating", "creating", "Creation complete", false, false}
	modifying  = operationKind{"Modifying", "modifying", "Modifications complete", true, false}
	destroying = operationKind{"Destroying", "destroying", "Destruction complete", true, false}
	reading    = operationKind{"Reading", "reading", "Read complete", false, false}
	// What a run does to an ephemeral resource instance.
	opening  = operationKind{"Opening", "opening", "Open complete", false, true}
	renewing = operationKind{"Renewing", "renewing", "Renew complete", false, true}
	closing  = operationKind{"Closing", "closing", "Close complete", false, true}
)

func kindOfApply(action plans.Action, planned cty.Value) (operationKind, bool) {
	switch {
	case action == plans.Create:
		return creating, true
	case action == plans.Update:
		return modifying, true
	case action == plans.Delete:
		return destroying, true
	case action == plans.Read:
		return reading, true
	case action.IsReplace():
		// A replacement reaches the hook as its two halves; the destroying
		// half has nothing planned.
		if planned == cty.NilVal || planned.IsNull() {
			return destroying, true
		}
		return creating, true
	}
	return operationKind{}, false
}

func objectName(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) string {
	if deposed != addrs.NotDeposed {
		return fmt.Sprintf("%s (deposed object %s)", addr, deposed)
	}
	return addr.String()
}

// maxIDLength keeps the id in "Still …" lines short.
const maxIDLength = 80

// idSuffix is the " [key=value]" that follows an event naming an object,
// or "" when nothing names it.
func idSuffix(key, value string) string {
	if key == "" || value == "" {
		return ""
	}
	return " [" + key + "=" + value + "]"
}

// writeLine writes one line in bold; callers hold h.mu.
func (h *ProgressHook) writeLine(line string) {
	_, _ = io.WriteString(h.out, h.pal.bold(line)+"\n")
}

// PreRefresh reports that an object's state is being read back.
func (h *ProgressHook) PreRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior cty.Value) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.writeLine(objectName(addr, deposed) + ": Refreshing state..." + idSuffix(objectID(prior)))
}

// PostRefresh says nothing: refreshing is quick, and its findings are
// shown in the plan.
func (h *ProgressHook) PostRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior, refreshed cty.Value) {
}

// PreApply reports that a change to an object starts, and reports every
// StillInterval until PostApply that it is still going.
func (h *ProgressHook) PreApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action, prior, planned cty.Value) {
	kind, ok := kindOfApply(action, planned)
	if !ok {
		return
	}
	op := &operation{name: objectName(addr, deposed), kind: kind, started: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if kind.showPriorID {
		op.idKey, op.idValue = objectIDOrName(prior)
	}
	h.start(op)
}

// PreEphemeralOp reports that an ephemeral resource instance is being
// opened, renewed or closed ("Opening...").
func (h *ProgressHook) PreEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action) {
	kind, ok := map[plans.Action]operationKind{plans.Open: opening, plans.Renew: renewing, plans.Close: closing}[action]
	if !ok {
		return
	}
	h.start(&operation{name: addr.String(), kind: kind, started: time.Now(), stop: make(chan struct{}), done: make(chan struct{})})
}

// PostEphemeralOp reports that opening, renewing or closing ended; it is
// reported the same way whether it succeeded or not.
func (h *ProgressHook) PostEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action, err error) {
	h.PostApply(addr, addrs.NotDeposed, cty.NilVal, nil)
}

// EphemeralDeferred says nothing: an ephemeral resource instance whose
// configuration is not known yet is simply opened during apply.
func (h *ProgressHook) EphemeralDeferred(addr addrs.AbsResourceInstance) {}

// start reports an operation starting and starts its "Still …" reports.
func (h *ProgressHook) start(op *operation) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	if previous := h.running[op.name]; previous != nil {
		previous.halt()
	}
	h.running[op.name] = op
	h.writeLine(op.name + ": " + op.kind.starting + "..." + idSuffix(op.idKey, op.idValue))
	go h.reportStill(op)
}

// elapsedSince is the whole seconds since start.
func elapsedSince(start time.Time) time.Duration { return time.Since(start).Truncate(time.Second) }

// reportStill writes a "Still …" line every interval until stopped.
func (h *ProgressHook) reportStill(op *operation) {
	defer close(op.done)
	ticker := time.NewTicker(h.interval)
	defer ticker.Stop()
	for {
		select {
		case <-op.stop:
			return
		case <-ticker.C:
			elapsed := elapsedSince(op.started)
			id := ""
			if op.idKey != "" && op.idValue != "" {
				id = op.idKey + "=" + truncateID(op.idValue, maxIDLength) + ", "
			}
			h.mu.Lock()
			select {
			case <-op.stop: // stopped while waiting for the lock
			default:
				h.writeLine(fmt.Sprintf("%s: Still %s... [%s%s elapsed]", op.name, op.kind.ongoing, id, elapsed))
			}
			h.mu.Unlock()
		}
	}
}

func (op *operation) halt() {
	select {
	case <-op.stop:
	default:
		close(op.stop)
	}
}

// PostApply reports that a change to an object succeeded; a failure is
// left to the diagnostics that follow. The line names the object by its
// address alone, deposed or not, as OpenTofu's does.
func (h *ProgressHook) PostApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, newState cty.Value, err error) {
	name := objectName(addr, deposed)
	h.mu.Lock()
	defer h.mu.Unlock()
	op := h.running[name]
	if op == nil {
		return
	}
	delete(h.running, name)
	op.halt()
	if err != nil && !op.kind.ephemeral {
		return
	}
	elapsed := elapsedSince(op.started)
	suffix := ""
	if !op.kind.ephemeral {
		suffix = idSuffix(objectID(newState))
	}
	h.writeLine(fmt.Sprintf("%s: %s after %s%s", addr, op.kind.finished, elapsed, suffix))
}

// Close stops the "Still …" reports of operations that never finished (a
// run that was aborted) and waits for them to stop; later events are
// ignored.
func (h *ProgressHook) Close() {
	h.mu.Lock()
	h.closed = true
	var waiting []*operation
	for name, op := range h.running {
		op.halt()
		waiting = append(waiting, op)
		delete(h.running, name)
	}
	h.mu.Unlock()
	for _, op := range waiting {
		<-op.done
	}
}

// truncateID shortens an id longer than max characters by eliding its
// middle, keeping both ends.
func truncateID(id string, max int) string {
	r := []rune(id)
	if len(r) <= max {
		return id
	}
	if max < 5 {
		max = 5
	}
	half := max / 2
	right := len(r) - half - 1
	if overlap := max - (half*2 + 3); overlap < 0 {
		right -= overlap
	}
	return string(r[:half-1]) + "..." + string(r[right:])
}
