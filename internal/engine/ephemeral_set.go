package engine

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
)

// ephemeralSet is the ephemeral resource instances one walk has open. Each
// is renewed whenever its provider asked (RenewAt) for as long as it is
// open, and closed as soon as every vertex that depends on its ephemeral
// block, directly or through others (a provider configured with its value,
// and everything that provider then works on), is over: run, failed or
// skipped. Whatever is still open when the walk ends, because it failed or
// was interrupted, is closed then. Closing and renewing use a context the
// walk's cancellation does not reach, so an interrupted run still lets go
// of what it opened.
type ephemeralSet struct {
	w *walker

	mu sync.Mutex
	// open are the instances of each ephemeral vertex, by vertex key.
	open map[string][]*openEphemeral
	// waiting counts, for each ephemeral vertex, the vertices depending on
	// it that are not over yet; holds lists, for each vertex, the
	// ephemeral vertices it keeps open; over marks ephemeral vertices whose
	// own work is done.
	waiting map[string]int
	holds   map[string][]string
	over    map[string]bool
	ds      diags.Diagnostics
}

// openEphemeral is one open ephemeral resource instance. mu is held for
// every call about it, so a renewal in flight finishes before it closes.
type openEphemeral struct {
	addr     addrs.AbsResourceInstance
	typeName string
	provider providers.Interface

	mu      sync.Mutex
	private []byte
	timer   *time.Timer
	closed  bool
}

// newEphemeralSet prepares the set for a walk over g, working out which
// vertices keep which ephemeral vertices open.
func newEphemeralSet(w *walker, g *graph) *ephemeralSet {
	s := &ephemeralSet{w: w, open: map[string][]*openEphemeral{}, waiting: map[string]int{},
		holds: map[string][]string{}, over: map[string]bool{}}
	var dependents map[string][]string
	for key, v := range g.vertices {
		if _, ok := v.(*ephemeralVertex); !ok {
			continue
		}
		if dependents == nil {
			dependents = g.dependents()
		}
		seen := map[string]bool{}
		stack := []string{key}
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range dependents[k] {
				if !seen[d] {
					seen[d] = true
					stack = append(stack, d)
				}
			}
		}
		s.waiting[key] = len(seen)
		for d := range seen {
			s.holds[d] = append(s.holds[d], key)
		}
	}
	return s
}

// add takes charge of an instance the provider opened: it is renewed at
// renewAt (when not zero) and closed with the vertex that opened it.
func (s *ephemeralSet) add(work *resourceWork, addr addrs.AbsResourceInstance, private []byte, renewAt time.Time) {
	inst := &openEphemeral{addr: addr, typeName: addr.Resource.Resource.Type, provider: work.provider.iface, private: private}
	key := addrs.ConfigResource{Module: addr.Module.Module(), Resource: addr.Resource.Resource}.String()
	s.mu.Lock()
	s.open[key] = append(s.open[key], inst)
	s.mu.Unlock()
	inst.mu.Lock()
	s.scheduleRenewal(inst, renewAt)
	inst.mu.Unlock()
}

// scheduleRenewal arranges for inst to be renewed at renewAt; the caller
// holds inst.mu.
func (s *ephemeralSet) scheduleRenewal(inst *openEphemeral, renewAt time.Time) {
	if renewAt.IsZero() || inst.closed {
		return
	}
	inst.timer = time.AfterFunc(time.Until(renewAt), func() { s.renew(inst) })
}

func (s *ephemeralSet) renew(inst *openEphemeral) {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	if inst.closed {
		return
	}
	s.w.preEphemeralOp(inst.addr, plans.Renew)
	resp := inst.provider.RenewEphemeralResource(context.WithoutCancel(s.w.ctx), providers.RenewEphemeralResourceRequest{TypeName: inst.typeName, Private: inst.private})
	s.w.postEphemeralOp(inst.addr, plans.Renew, resp.Diagnostics.Err())
	if len(resp.Diagnostics) > 0 {
		s.report(resp.Diagnostics.WithAddress(inst.addr.String()))
	}
	if resp.Diagnostics.HasErrors() {
		return
	}
	if resp.Private != nil {
		inst.private = resp.Private
	}
	s.scheduleRenewal(inst, resp.RenewAt)
}

func (s *ephemeralSet) report(ds diags.Diagnostics) {
	s.mu.Lock()
	s.ds = s.ds.Append(ds)
	s.mu.Unlock()
}

// vertexDone is the walk's notice that the vertex with key is over. The
// ephemeral vertices nothing still needs are closed.
func (s *ephemeralSet) vertexDone(key string) {
	s.mu.Lock()
	var release []string
	if _, isEphemeral := s.waiting[key]; isEphemeral {
		s.over[key] = true
		if s.waiting[key] == 0 {
			release = append(release, key)
		}
	}
	for _, e := range s.holds[key] {
		s.waiting[e]--
		if s.waiting[e] == 0 && s.over[e] {
			release = append(release, e)
		}
	}
	s.mu.Unlock()
	for _, e := range release {
		s.closeVertex(e)
	}
}

// closeVertex closes every open instance of one ephemeral vertex.
func (s *ephemeralSet) closeVertex(key string) {
	s.mu.Lock()
	instances := s.open[key]
	delete(s.open, key)
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, inst := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.close(inst)
		}()
	}
	wg.Wait()
}

func (s *ephemeralSet) close(inst *openEphemeral) {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	if inst.closed {
		return
	}
	inst.closed = true
	if inst.timer != nil {
		inst.timer.Stop()
	}
	s.w.preEphemeralOp(inst.addr, plans.Close)
	resp := inst.provider.CloseEphemeralResource(context.WithoutCancel(s.w.ctx), providers.CloseEphemeralResourceRequest{TypeName: inst.typeName, Private: inst.private})
	s.w.postEphemeralOp(inst.addr, plans.Close, resp.Diagnostics.Err())
	if len(resp.Diagnostics) > 0 {
		s.report(resp.Diagnostics.WithAddress(inst.addr.String()))
	}
}

// closeAll closes whatever is still open, once the walk is over, and
// returns what renewing and closing reported during the walk.
func (s *ephemeralSet) closeAll() diags.Diagnostics {
	s.mu.Lock()
	keys := make([]string, 0, len(s.open))
	for key := range s.open {
		keys = append(keys, key)
	}
	s.mu.Unlock()
	sort.Strings(keys)
	for _, key := range keys {
		s.closeVertex(key)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ds
}

// walkGraph walks g with w.run, opening, renewing and closing ephemeral
// resources along the way, and returns every diagnostic of the walk.
func (w *walker) walkGraph(ctx context.Context, g *graph) diags.Diagnostics {
	w.ephemerals = newEphemeralSet(w, g)
	var done func(string)
	if len(w.ephemerals.waiting) > 0 {
		done = w.ephemerals.vertexDone
	}
	ds := g.walkNotifying(ctx, w.run, done)
	return ds.Append(w.ephemerals.closeAll()).Append(w.lazyLoadDiags())
}
