package engine

import (
	"context"
	"sync"

	"github.com/terrane/terrane/internal/diags"
)

// walkFunc does one vertex's work. ok false marks the vertex failed, so
// that nothing depending on it runs; a vertex may report errors and still
// be ok when its failures are confined to parts others do not need.
type walkFunc func(ctx context.Context, v vertex) (ds diags.Diagnostics, ok bool)

// walk runs every vertex of g once its dependencies are done, in parallel,
// in O(vertices + edges). A vertex whose dependency failed is skipped, and
// so are its dependents; once ctx is cancelled no vertex starts. The graph
// must be acyclic (see graph.cycles).
func (g *graph) walk(ctx context.Context, fn walkFunc) diags.Diagnostics {
	return g.walkNotifying(ctx, fn, nil)
}

// walkNotifying is walk that also calls done with the key of every vertex
// once it is over, whether it ran, failed or was skipped, before its
// dependents start.
func (g *graph) walkNotifying(ctx context.Context, fn walkFunc, done func(key string)) diags.Diagnostics {
	dependents := g.dependents()
	remaining := make(map[string]int, len(g.vertices))
	for k, set := range g.deps {
		remaining[k] = len(set)
	}
	var (
		mu      sync.Mutex
		all     diags.Diagnostics
		failed  = map[string]bool{}
		wg      sync.WaitGroup
		startFn func(k string)
	)
	// finish records a vertex's end and starts the dependents it unblocks.
	finish := func(k string, ok bool) {
		if done != nil {
			done(k)
		}
		mu.Lock()
		if !ok {
			failed[k] = true
		}
		var ready []string
		for _, d := range dependents[k] {
			if !ok {
				failed[d] = true
			}
			remaining[d]--
			if remaining[d] == 0 {
				ready = append(ready, d)
			}
		}
		mu.Unlock()
		for _, d := range ready {
			startFn(d)
		}
	}
	startFn = func(k string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			skip := failed[k]
			mu.Unlock()
			if skip || ctx.Err() != nil {
				finish(k, false)
				return
			}
			ds, ok := fn(ctx, g.vertices[k])
			mu.Lock()
			all = all.Append(ds)
			mu.Unlock()
			finish(k, ok)
		}()
	}
	var roots []string
	for k, n := range remaining {
		if n == 0 {
			roots = append(roots, k)
		}
	}
	for _, k := range roots {
		startFn(k)
	}
	wg.Wait()
	return all
}
