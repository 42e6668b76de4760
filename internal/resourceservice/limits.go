package resourceservice

import (
	"context"
	"crypto/sha256"
	"runtime/debug"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
)

// The default bounds on the WatchList streams of one caller. A watch holds
// a goroutine, a queue and HTTP/2 buffers on the server for as long as it is
// open; without a bound one token could exhaust the server's memory.
const (
	DefaultWatchesPerToken      = 256
	DefaultWatchesPerConnection = 64
)

// WatchLimits bound the WatchList streams open at once: per token (all
// callers without a token share one count) and per client connection.
// Zero means the default.
type WatchLimits struct {
	PerToken, PerConnection int
}

func (l WatchLimits) withDefaults() WatchLimits {
	if l.PerToken <= 0 {
		l.PerToken = DefaultWatchesPerToken
	}
	if l.PerConnection <= 0 {
		l.PerConnection = DefaultWatchesPerConnection
	}
	return l
}

// memoryReturnDelay is how long after most of a burst of watches ended
// the server hands their memory back to the operating system: long enough
// for the rest of the burst to end too and be collected with it.
const memoryReturnDelay = time.Second

// watchLimiter counts open watches by token and by connection.
type watchLimiter struct {
	limits WatchLimits

	mu      sync.Mutex
	byToken map[[sha256.Size]byte]int
	byConn  map[string]int
	open    int
	// peak is the most watches open since memory was last returned;
	// returning is set while a return is scheduled.
	peak      int
	returning bool
}

func newWatchLimiter(limits WatchLimits) *watchLimiter {
	return &watchLimiter{limits: limits.withDefaults(), byToken: map[[sha256.Size]byte]int{}, byConn: map[string]int{}}
}

// acquire counts a new watch of the caller in ctx, or refuses it with
// ResourceExhausted naming the limit; release gives the slot back.
func (l *watchLimiter) acquire(ctx context.Context) (release func(), err error) {
	token := sha256.Sum256([]byte(metadataValue(ctx, TokenMetadataKey)))
	conn := "unknown"
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		conn = p.Addr.String()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.byConn[conn] >= l.limits.PerConnection:
		return nil, errorf(codes.ResourceExhausted, "this connection already has %d watches open, the most one connection may hold; close one, or open another connection", l.limits.PerConnection)
	case l.byToken[token] >= l.limits.PerToken:
		return nil, errorf(codes.ResourceExhausted, "this token already has %d watches open, the most one token may hold; close one first", l.limits.PerToken)
	}
	l.byConn[conn]++
	l.byToken[token]++
	l.open++
	l.peak = max(l.peak, l.open)
	var once sync.Once
	return func() { once.Do(func() { l.release(token, conn) }) }, nil
}

func (l *watchLimiter) release(token [sha256.Size]byte, conn string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byConn[conn]--; l.byConn[conn] == 0 {
		delete(l.byConn, conn)
	}
	if l.byToken[token]--; l.byToken[token] == 0 {
		delete(l.byToken, token)
	}
	l.open--
	// Once most of a burst of watches has ended, hand their memory back to
	// the operating system instead of waiting for the runtime's slow
	// background return: a server that was flooded should shrink again.
	if l.peak >= 32 && l.open <= l.peak/4 && !l.returning {
		l.returning = true
		time.AfterFunc(memoryReturnDelay, func() {
			debug.FreeOSMemory()
			l.mu.Lock()
			l.peak, l.returning = l.open, false
			l.mu.Unlock()
		})
	}
}
