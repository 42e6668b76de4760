package engine

import (
	"fmt"
	"sync"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// instanceSlotsPerCall is how many instances an apply walks on at once for
// each provider-call slot (Options.Parallelism). An instance in progress
// spends most of its time waiting, for a call slot or for the group commit
// of its intent or result, so several per call slot keep the calls busy and
// the commits large; beyond that, more would only hold evaluated
// configuration in memory while they queue, and memory would grow with the
// instance count instead of with the work in flight.
const instanceSlotsPerCall = 32

// planInstanceSlotsPerCall is the same for the other walks (plan, refresh,
// evaluation), which write nothing and so wait for no commit: an instance
// waits only for its calls, and a few per call slot keep them all busy. A
// plan of 5,000 null- and random-like instances peaks about 6 MiB lower
// with 8 than with 32, in the same time.
const planInstanceSlotsPerCall = 8

// instanceSlots is how many instances a walk of op works on at once.
func instanceSlots(op walkOp, parallelism int) int {
	if op == walkApply {
		return instanceSlotsPerCall * parallelism
	}
	return planInstanceSlotsPerCall * parallelism
}

// instanceGroup runs the per-instance work of one vertex, each piece on its
// own goroutine once one of the walk's instance slots is free, and gathers
// the diagnostics. Starting blocks while every slot is taken. The slots are
// shared by the whole walk; a piece of work must never wait for another
// instance's work, or slots could run out with every holder waiting.
type instanceGroup struct {
	w  *walker
	wg sync.WaitGroup
	mu sync.Mutex
	// results are each piece's diagnostics by the order it was started
	// in, so that they are reported in instance order however the pieces
	// finish.
	results map[int]diags.Diagnostics
	started int
}

func (w *walker) newInstanceGroup() *instanceGroup { return &instanceGroup{w: w} }

// start runs fn once a slot is free.
func (g *instanceGroup) start(fn func() diags.Diagnostics) {
	g.w.instanceSlots <- struct{}{}
	g.wg.Add(1)
	seq := g.started
	g.started++
	go func() {
		defer g.wg.Done()
		defer func() { <-g.w.instanceSlots }()
		d := fn()
		if len(d) == 0 {
			return
		}
		g.mu.Lock()
		if g.results == nil {
			g.results = map[int]diags.Diagnostics{}
		}
		g.results[seq] = d
		g.mu.Unlock()
	}()
}

// wait waits for every piece started and returns their diagnostics.
func (g *instanceGroup) wait() diags.Diagnostics {
	g.wg.Wait()
	var ds diags.Diagnostics
	for seq := 0; seq < g.started; seq++ {
		ds = ds.Append(g.results[seq])
	}
	return ds
}

// operation runs one change that opens an intent on addr's record: fn
// opens it, makes the provider call and records the result. It holds one of
// the walk's Parallelism operation slots from before the intent is written
// until the result is queued for commit, so no more intents are open at
// any moment than calls may run at once: after a crash, at most Parallelism
// operations are uncertain, however many instances were waiting
// (docs/architecture.md, "Nothing is silently forgotten"). Only a result that fails
// to be written lets one more intent open beside its own. The instance slots above only bound how much
// work is evaluated ahead; none of it announces a call it is not making.
//
// A provider whose process stopped earlier in the walk gets no new intent:
// the call could not be sent, so the change is refused before anything is
// written.
func (w *walker) operation(p *configuredProvider, addr addrs.AbsResourceInstance, fn func() diags.Diagnostics) diags.Diagnostics {
	select {
	case w.operationSlots <- struct{}{}:
	case <-w.ctx.Done():
		return notStartedDiags(addr)
	}
	var releaseOnce sync.Once
	release := func() { releaseOnce.Do(func() { <-w.operationSlots }) }
	defer release()
	// The slot is given up as soon as the result is queued for commit
	// (writeInstance, recordResult): the journal commits in queue order,
	// so an intent admitted after that is never durable before the result.
	key := addr.String()
	w.heldSlots.Store(key, release)
	defer w.heldSlots.Delete(key)
	if w.ctx.Err() != nil {
		return notStartedDiags(addr)
	}
	if p.stopped.Load() {
		return diags.Diagnostics{{Severity: diags.Error, Summary: providers.SummaryNotRunning, Address: addr.String(),
			Detail: fmt.Sprintf("The provider %s stopped earlier in this run, so the change to %s was not started and nothing was done to it. Run the command again to retry it.",
				addrs.ProviderForDisplay(p.addr.Provider), addr)}}
	}
	ds := fn()
	if providers.Stopped(ds) {
		p.stopped.Store(true)
	}
	return ds
}

func notStartedDiags(addr addrs.AbsResourceInstance) diags.Diagnostics {
	return diags.Diagnostics{{Severity: diags.Error, Summary: "Not started: the run was interrupted",
		Detail: fmt.Sprintf("The run was cancelled before the change to %s began; nothing was done to it.", addr), Address: addr.String()}}
}
