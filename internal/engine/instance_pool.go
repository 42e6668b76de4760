package engine

import (
	"sync"

	"github.com/terrane/terrane/internal/diags"
)

// instanceSlotsPerCall is how many instances a walk works on at once for
// each provider-call slot (Options.Parallelism). An instance in progress
// spends most of its time waiting, for a call slot or for the group commit
// of its intent or result, so several per call slot keep the calls busy and
// the commits large; beyond that, more would only hold evaluated
// configuration in memory while they queue, and memory would grow with the
// instance count instead of with the work in flight.
const instanceSlotsPerCall = 32

// instanceGroup runs the per-instance work of one vertex, each piece on its
// own goroutine once one of the walk's instance slots is free, and gathers
// the diagnostics. Starting blocks while every slot is taken. The slots are
// shared by the whole walk; a piece of work must never wait for another
// instance's work, or slots could run out with every holder waiting.
type instanceGroup struct {
	w  *walker
	wg sync.WaitGroup
	mu sync.Mutex
	ds diags.Diagnostics
}

func (w *walker) newInstanceGroup() *instanceGroup { return &instanceGroup{w: w} }

// start runs fn once a slot is free.
func (g *instanceGroup) start(fn func() diags.Diagnostics) {
	g.w.instanceSlots <- struct{}{}
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer func() { <-g.w.instanceSlots }()
		d := fn()
		if len(d) == 0 {
			return
		}
		g.mu.Lock()
		g.ds = g.ds.Append(d)
		g.mu.Unlock()
	}()
}

// wait waits for every piece started and returns their diagnostics.
func (g *instanceGroup) wait() diags.Diagnostics {
	g.wg.Wait()
	return g.ds
}
