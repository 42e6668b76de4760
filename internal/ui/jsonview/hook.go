package jsonview

import (
	"fmt"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
)

// DefaultProgressInterval is how often apply_progress messages repeat for
// an operation still running, as in Terraform.
const DefaultProgressInterval = 10 * time.Second

// Hook writes apply_start, apply_progress, apply_complete, apply_errored,
// refresh_start, refresh_complete and the ephemeral_op_* messages for the
// engine's progress events. It has the engine's Hook method set and is safe for concurrent
// use. Call Stop when the run ends, to end the progress messages.
type Hook struct {
	view     *View
	interval time.Duration

	mu       sync.Mutex
	inFlight map[string]*operation
}

// operation is one apply in progress.
type operation struct {
	addr    addrs.AbsResourceInstance
	deposed addrs.DeposedKey
	action  plans.Action
	// messages is the prefix of the operation's message types: "apply",
	// or "ephemeral_op" for an ephemeral resource being opened, renewed or
	// closed.
	messages string
	start    time.Time
	stop     chan struct{}
	// stopped is closed when the progress messages have ended: once it
	// is, none is written any more.
	stopped chan struct{}
}

// NewHook returns a Hook writing to view, repeating progress messages every
// interval (DefaultProgressInterval when zero).
func NewHook(view *View, interval time.Duration) *Hook {
	if interval <= 0 {
		interval = DefaultProgressInterval
	}
	return &Hook{view: view, interval: interval, inFlight: map[string]*operation{}}
}

// hookResource is the "hook" property of apply and refresh messages.
type hookResource struct {
	Resource       ResourceAddr `json:"resource"`
	Action         string       `json:"action,omitempty"`
	IDKey          string       `json:"id_key,omitempty"`
	IDValue        string       `json:"id_value,omitempty"`
	ElapsedSeconds *int         `json:"elapsed_seconds,omitempty"`
}

func operationKey(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) string {
	return addr.String() + "\x00" + string(deposed)
}

// hookAction is the action apply messages report. The engine calls the
// hooks of a replacement once for each of its steps, a create and a delete
// (the delete's planned value is null), in either order; Terraform reports
// those steps as a create and a delete, never as a replace.
func hookAction(action plans.Action, planned cty.Value) plans.Action {
	if !action.IsReplace() {
		return action
	}
	if planned == cty.NilVal || planned.IsNull() {
		return plans.Delete
	}
	return plans.Create
}

// objectID finds an object's "id" attribute, the one Terraform shows in
// progress messages, when it is a known, non-sensitive string.
func objectID(val cty.Value) (key, id string) {
	if val == cty.NilVal || val.IsNull() || !val.IsKnown() || !val.Type().IsObjectType() || !val.Type().HasAttribute("id") {
		return "", ""
	}
	attr := val.GetAttr("id")
	if attr.IsMarked() || !attr.IsKnown() || attr.IsNull() || attr.Type() != cty.String {
		return "", ""
	}
	return "id", attr.AsString()
}

// verbs are the words of apply messages for an action: starting, still
// going, finished.
type verbs struct{ starting, progressing, finished string }

func actionVerbs(action plans.Action) verbs {
	switch action {
	case plans.Create:
		return verbs{"Creating", "creating", "Creation"}
	case plans.Update:
		return verbs{"Modifying", "modifying", "Modifications"}
	case plans.Delete:
		return verbs{"Destroying", "destroying", "Destruction"}
	case plans.Read:
		// Terraform's messages word a data source read as a refresh.
		return verbs{"Refreshing", "refreshing", "Refresh"}
	case plans.Forget:
		return verbs{"Removing", "removing", "Removal"}
	case plans.DeleteThenCreate, plans.CreateThenDelete, plans.CreateThenForget:
		return verbs{"Replacing", "replacing", "Replacement"}
	case plans.Open:
		return verbs{"Opening", "opening", "Opening"}
	case plans.Renew:
		return verbs{"Renewing", "renewing", "Renewal"}
	case plans.Close:
		return verbs{"Closing", "closing", "Closing"}
	default:
		return verbs{"Applying", "applying", "Apply"}
	}
}

// PreApply writes apply_start and starts repeating apply_progress. As in
// Terraform's messages, an object is named by its instance address alone,
// a deposed one too: its id, in the message and the hook, tells it apart.
func (h *Hook) PreApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action, prior, planned cty.Value) {
	action = hookAction(action, planned)
	op := h.begin(addr, deposed, action, "apply")

	hook := hookResource{Resource: NewResourceAddr(addr), Action: ChangeAction(action)}
	message := fmt.Sprintf("%s: %s...", addr.String(), actionVerbs(action).starting)
	if action != plans.Create && action != plans.Read {
		hook.IDKey, hook.IDValue = objectID(prior)
		if hook.IDValue != "" {
			message += fmt.Sprintf(" [%s=%s]", hook.IDKey, hook.IDValue)
		}
	}
	h.view.emit(LevelInfo, "apply_start", message, map[string]any{"hook": hook})
	go h.progress(op)
}

// begin records an operation starting, ending the progress messages of
// one still recorded for the same object.
func (h *Hook) begin(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action, messages string) *operation {
	op := &operation{addr: addr, deposed: deposed, action: action, messages: messages, start: h.view.Now(), stop: make(chan struct{}), stopped: make(chan struct{})}
	h.mu.Lock()
	defer h.mu.Unlock()
	if previous := h.inFlight[operationKey(addr, deposed)]; previous != nil {
		previous.end()
	}
	h.inFlight[operationKey(addr, deposed)] = op
	return op
}

// finish takes an operation out of the record and ends its progress
// messages; nil when none was started.
func (h *Hook) finish(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) *operation {
	key := operationKey(addr, deposed)
	h.mu.Lock()
	op := h.inFlight[key]
	delete(h.inFlight, key)
	h.mu.Unlock()
	if op != nil {
		op.end()
	}
	return op
}

// PreEphemeralOp writes ephemeral_op_start, as Terraform's stream does for
// an ephemeral resource instance being opened, renewed or closed, and
// starts repeating ephemeral_op_progress. Nothing of the instance's value
// is written.
func (h *Hook) PreEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action) {
	op := h.begin(addr, addrs.NotDeposed, action, "ephemeral_op")
	hook := hookResource{Resource: NewResourceAddr(addr), Action: ChangeAction(action)}
	h.view.emit(LevelInfo, "ephemeral_op_start", fmt.Sprintf("%s: %s...", addr.String(), actionVerbs(action).starting), map[string]any{"hook": hook})
	go h.progress(op)
}

// EphemeralDeferred writes nothing: Terraform's stream has no message for
// an ephemeral resource a plan leaves unopened.
func (h *Hook) EphemeralDeferred(addrs.AbsResourceInstance) {}

// PostEphemeralOp ends the operation with ephemeral_op_complete, or
// ephemeral_op_errored when err is set.
func (h *Hook) PostEphemeralOp(addr addrs.AbsResourceInstance, action plans.Action, err error) {
	op := h.finish(addr, addrs.NotDeposed)
	if op == nil {
		return
	}
	elapsed := h.elapsed(op)
	hook := hookResource{Resource: NewResourceAddr(addr), Action: ChangeAction(action), ElapsedSeconds: &elapsed}
	finished := actionVerbs(action).finished
	if err != nil {
		h.view.emit(LevelInfo, "ephemeral_op_errored", fmt.Sprintf("%s: %s errored after %ds", addr.String(), finished, elapsed), map[string]any{"hook": hook})
		return
	}
	h.view.emit(LevelInfo, "ephemeral_op_complete", fmt.Sprintf("%s: %s complete after %ds", addr.String(), finished, elapsed), map[string]any{"hook": hook})
}

// end stops the operation's progress messages and waits until the last
// one is written, so that nothing about it follows its completion.
func (op *operation) end() {
	close(op.stop)
	<-op.stopped
}

// progress writes apply_progress every interval until the operation ends.
func (h *Hook) progress(op *operation) {
	defer close(op.stopped)
	ticker := time.NewTicker(h.interval)
	defer ticker.Stop()
	for {
		select {
		case <-op.stop:
			return
		case <-ticker.C:
			select {
			case <-op.stop:
				return // both were ready: the operation ended first
			default:
			}
			elapsed := h.elapsed(op)
			hook := hookResource{Resource: NewResourceAddr(op.addr), Action: ChangeAction(op.action), ElapsedSeconds: &elapsed}
			message := fmt.Sprintf("%s: Still %s... [%ds elapsed]", op.addr.String(), actionVerbs(op.action).progressing, elapsed)
			h.view.emit(LevelInfo, op.messages+"_progress", message, map[string]any{"hook": hook})
		}
	}
}

func (h *Hook) elapsed(op *operation) int {
	return int(h.view.Now().Sub(op.start) / time.Second)
}

// PostApply ends the operation with apply_complete, or apply_errored when
// err is set. The error itself is reported as a diagnostic by the command.
func (h *Hook) PostApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, newState cty.Value, err error) {
	op := h.finish(addr, deposed)
	if op == nil {
		// No PreApply was seen: nothing started that could complete.
		return
	}
	elapsed := h.elapsed(op)
	hook := hookResource{Resource: NewResourceAddr(addr), Action: ChangeAction(op.action), ElapsedSeconds: &elapsed}
	finished := actionVerbs(op.action).finished
	name := addr.String()
	if err != nil {
		h.view.emit(LevelInfo, "apply_errored", fmt.Sprintf("%s: %s errored after %ds", name, finished, elapsed), map[string]any{"hook": hook})
		return
	}
	message := fmt.Sprintf("%s: %s complete after %ds", name, finished, elapsed)
	if op.action != plans.Delete && op.action != plans.Forget {
		hook.IDKey, hook.IDValue = objectID(newState)
		if hook.IDValue != "" {
			message += fmt.Sprintf(" [%s=%s]", hook.IDKey, hook.IDValue)
		}
	}
	h.view.emit(LevelInfo, "apply_complete", message, map[string]any{"hook": hook})
}

// PreRefresh writes refresh_start.
func (h *Hook) PreRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior cty.Value) {
	hook := hookResource{Resource: NewResourceAddr(addr)}
	hook.IDKey, hook.IDValue = objectID(prior)
	message := fmt.Sprintf("%s: Refreshing state...", addr.String())
	if hook.IDValue != "" {
		message += fmt.Sprintf(" [%s=%s]", hook.IDKey, hook.IDValue)
	}
	h.view.emit(LevelInfo, "refresh_start", message, map[string]any{"hook": hook})
}

// PostRefresh writes refresh_complete.
func (h *Hook) PostRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior, refreshed cty.Value) {
	hook := hookResource{Resource: NewResourceAddr(addr)}
	hook.IDKey, hook.IDValue = objectID(refreshed)
	message := fmt.Sprintf("%s: Refresh complete", addr.String())
	if hook.IDValue != "" {
		message += fmt.Sprintf(" [%s=%s]", hook.IDKey, hook.IDValue)
	}
	h.view.emit(LevelInfo, "refresh_complete", message, map[string]any{"hook": hook})
}

// Stop ends the progress messages of operations still in flight, as when a
// run is interrupted.
func (h *Hook) Stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for key, op := range h.inFlight {
		op.end()
		delete(h.inFlight, key)
	}
}
