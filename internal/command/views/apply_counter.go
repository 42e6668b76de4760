package views

import (
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/ui"
)

// applyCounter counts the changes an apply completed, for the summary:
// a replacement counts once as added and once as destroyed, as Terraform
// counts it.
type applyCounter struct {
	engine.NilHook
	mu                                   sync.Mutex
	actions                              map[string]plans.Action
	added, changed, destroyed, forgotten int
}

func (c *applyCounter) PreApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action, prior, planned cty.Value) {
	kind := action
	if action.IsReplace() {
		kind = plans.Create
		if planned == cty.NilVal || planned.IsNull() {
			kind = plans.Delete
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.actions[counterKey(addr, deposed)] = kind
}

func (c *applyCounter) PostApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, newState cty.Value, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := counterKey(addr, deposed)
	kind, ok := c.actions[key]
	delete(c.actions, key)
	if !ok || err != nil {
		return
	}
	switch kind {
	case plans.Create:
		c.added++
	case plans.Update:
		c.changed++
	case plans.Delete:
		c.destroyed++
	case plans.Forget:
		c.forgotten++
	}
}

func counterKey(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey) string {
	return addr.String() + " " + string(deposed)
}

func (c *applyCounter) summary() ui.ApplySummary {
	if c == nil {
		return ui.ApplySummary{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return ui.ApplySummary{Added: c.added, Changed: c.changed, Destroyed: c.destroyed, Forgotten: c.forgotten}
}
