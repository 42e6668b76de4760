package keyprovider

import (
	"context"
	"sync"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// ClientCache makes one client of a key service per distinct key provider
// configuration per process: a run builds a key provider several times (to
// validate, to encrypt, to decrypt), and making a client may cost calls of
// its own (AWS asks STS who the caller is).
type ClientCache[T any] struct {
	mu      sync.Mutex
	entries map[string]*cachedClient[T]
}

type cachedClient[T any] struct {
	once   sync.Once
	client T
	err    error
}

// Get returns a function giving the client for config, made by build on
// its first call.
func (c *ClientCache[T]) Get(config cty.Value, build func(context.Context) (T, error)) func(context.Context) (T, error) {
	key, _ := ctyjson.Marshal(config, config.Type())
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]*cachedClient[T]{}
	}
	entry, ok := c.entries[string(key)]
	if !ok {
		entry = &cachedClient[T]{}
		c.entries[string(key)] = entry
	}
	c.mu.Unlock()
	return func(ctx context.Context) (T, error) {
		// The client outlives the call that made it.
		entry.once.Do(func() { entry.client, entry.err = build(context.WithoutCancel(ctx)) })
		return entry.client, entry.err
	}
}
