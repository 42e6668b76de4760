package moduletest

import (
	"context"
	"sync"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/providers"
)

// processPool launches provider processes ahead of need. Every plan and
// apply of every run starts its own processes (a process is configured
// once), and starting one — exec, the plugin handshake, TLS keys — takes
// longer than most test plans; with a started process waiting, a run's
// walk does not wait for one. Processes still waiting at the end are
// closed.
type processPool struct {
	factories map[addrs.Provider]providers.Factory
	// warm is how many started processes to keep waiting per provider.
	warm int

	mu      sync.Mutex
	waiting map[addrs.Provider][]*launch
	closed  bool
}

// launch is one process being started.
type launch struct {
	done chan struct{}
	p    providers.Interface
	err  error
}

func newProcessPool(factories map[addrs.Provider]providers.Factory, warm int) *processPool {
	return &processPool{factories: factories, warm: warm, waiting: map[addrs.Provider][]*launch{}}
}

// Factories are factories that hand out the pool's processes.
func (pool *processPool) Factories() map[addrs.Provider]providers.Factory {
	out := make(map[addrs.Provider]providers.Factory, len(pool.factories))
	for provider := range pool.factories {
		out[provider] = func(ctx context.Context) (providers.Interface, error) { return pool.get(ctx, provider) }
	}
	return out
}

func (pool *processPool) start(provider addrs.Provider) *launch {
	l := &launch{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		// The process outlives the walk that asked first, so it is
		// not tied to that walk's context.
		l.p, l.err = pool.factories[provider](context.Background())
	}()
	return l
}

// get returns a started process of provider, taking a waiting one when
// there is one, and starts the next.
func (pool *processPool) get(ctx context.Context, provider addrs.Provider) (providers.Interface, error) {
	pool.mu.Lock()
	var l *launch
	if queue := pool.waiting[provider]; len(queue) > 0 {
		l, pool.waiting[provider] = queue[0], queue[1:]
	} else {
		l = pool.start(provider)
	}
	for !pool.closed && len(pool.waiting[provider]) < pool.warm {
		pool.waiting[provider] = append(pool.waiting[provider], pool.start(provider))
	}
	pool.mu.Unlock()
	select {
	case <-l.done:
		return l.p, l.err
	case <-ctx.Done():
		go closeWhenStarted(l)
		return nil, ctx.Err()
	}
}

// close stops the processes still waiting.
func (pool *processPool) close() {
	pool.mu.Lock()
	pool.closed = true
	waiting := pool.waiting
	pool.waiting = map[addrs.Provider][]*launch{}
	pool.mu.Unlock()
	for _, queue := range waiting {
		for _, l := range queue {
			closeWhenStarted(l)
		}
	}
}

func closeWhenStarted(l *launch) {
	<-l.done
	if l.p != nil {
		_ = l.p.Close()
	}
}
