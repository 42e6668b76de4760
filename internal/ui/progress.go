package ui

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/lang/marks"
	"github.com/terrane/terrane/internal/plans"
)

// ProgressOptions tailor a ProgressHook.
type ProgressOptions struct {
	Color bool
	// StillInterval is how often a long operation reports that it is still
	// running; zero means every 10 seconds.
	StillInterval time.Duration
}

// ProgressHook reports refresh and apply progress as Terraform does, one
// whole line per event ("null_resource.a: Creating...", "Still
// creating... [10s elapsed]", "Creation complete after 1s [id=…]"). It
// implements the engine's Hook interface and is safe for concurrent use:
// each line is written with a single Write under a lock, so lines from
// parallel operations never interleave.
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
	id      string // the object's id before the call, when it had one
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
	starting, ongoing, finished string // "Creating", "creating", "Creation"
	showPriorID                 bool   // the object exists, so name it by its id
	showNewID                   bool   // the object exists afterwards
}

var (
	creating   = operationKind{"Creating", "creating", "Creation", false, true}
	modifying  = operationKind{"Modifying", "modifying", "Modifications", true, true}
	destroying = operationKind{"Destroying", "destroying", "Destruction", true, false}
	reading    = operationKind{"Reading", "reading", "Read", false, true}
	// What a run does to an ephemeral resource instance; no id is shown,
	// since nothing of its value is.
	opening  = operationKind{"Opening", "opening", "Opening", false, false}
	renewing = operationKind{"Renewing", "renewing", "Renewal", false, false}
	closing  = operationKind{"Closing", "closing", "Closing", false, false}
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

// maxIDLength keeps id annotations to one line.
const maxIDLength = 80

// idOf returns the object's "id" attribute for display, or "" when it has
// none that can be shown.
func idOf(v cty.Value) string {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return ""
	}
	id := v.GetAttr("id")
	if id.HasMark(marks.Sensitive) {
		return "(sensitive value)"
	}
	id, _ = id.UnmarkDeep()
	if id.IsNull() || !id.IsKnown() || id.Type() != cty.String {
		return ""
	}
	text := id.AsString()
	if len(text) > maxIDLength {
		text = text[:maxIDLength-3] + "..."
	}
	return text
}

func idSuffix(id string) string {
	if id == "" {
		return ""
	}
	return " [id=" + id + "]"
}

// writeLine writes one line; callers hold h.mu.
func (h *ProgressHook) writeLine(line string) {
	_, _ = io.WriteString(h.out, line+"\n")
}

// PreRefresh reports that an object's state is being read back.
func (h *ProgressHook) PreRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior cty.Value) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.writeLine(h.pal.bold(objectName(addr, deposed)+": Refreshing state...") + idSuffix(idOf(prior)))
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
		op.id = idOf(prior)
	}
	h.start(op)
}

// PreEphemeralOp reports that an ephemeral resource instance is being
// opened, renewed or closed, as Terraform does ("Opening...").
func (h *ProgressHook) PreEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action) {
	kind, ok := map[plans.Action]operationKind{plans.Open: opening, plans.Renew: renewing, plans.Close: closing}[action]
	if !ok {
		return
	}
	h.start(&operation{name: addr.String(), kind: kind, started: time.Now(), stop: make(chan struct{}), done: make(chan struct{})})
}

// PostEphemeralOp reports how opening, renewing or closing ended.
func (h *ProgressHook) PostEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action, err error) {
	h.PostApply(addr, addrs.NotDeposed, cty.NilVal, err)
}

// EphemeralDeferred reports that a plan leaves an ephemeral resource
// instance unopened until apply, as Terraform does.
func (h *ProgressHook) EphemeralDeferred(addr addrs.AbsResourceInstance) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.writeLine(h.pal.bold(addr.String() + ": Configuration unknown, deferring..."))
	}
}

// start reports an operation starting and starts its "Still …" reports.
func (h *ProgressHook) start(op *operation) {
	kind := op.kind
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	if previous := h.running[op.name]; previous != nil {
		previous.halt()
	}
	h.running[op.name] = op
	h.writeLine(h.pal.bold(op.name+": "+kind.starting+"...") + idSuffix(op.id))
	go h.reportStill(op)
}

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
			elapsed := time.Since(op.started).Truncate(time.Second)
			id := ""
			if op.id != "" {
				id = "id=" + op.id + ", "
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

// PostApply reports how a change to an object ended.
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
	elapsed := time.Since(op.started).Truncate(time.Second)
	if err != nil {
		h.writeLine(h.pal.bold(fmt.Sprintf("%s: %s errored after %s", name, op.kind.finished, elapsed)))
		return
	}
	id := ""
	if op.kind.showNewID {
		id = idSuffix(idOf(newState))
	}
	// OpenTofu reports the end of a deposed object's destruction under
	// the instance's address alone, without "(deposed object …)".
	h.writeLine(h.pal.bold(fmt.Sprintf("%s: %s complete after %s", addr, op.kind.finished, elapsed)) + id)
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
