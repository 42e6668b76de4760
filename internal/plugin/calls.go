package plugin

import (
	"context"
	"path"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc"
)

// callLog counts the RPCs sent to one provider process and logs each at
// trace level with its duration. The counts show what a run cost a provider
// (and let tests see which calls really went over the wire).
type callLog struct {
	logger hclog.Logger

	mu     sync.Mutex
	counts map[string]int
}

func newCallLog(logger hclog.Logger) *callLog {
	return &callLog{logger: logger, counts: make(map[string]int)}
}

func (l *callLog) interceptor(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	rpc := path.Base(method)
	l.mu.Lock()
	l.counts[rpc]++
	l.mu.Unlock()
	start := time.Now()
	err := invoker(ctx, method, req, reply, cc, opts...)
	if l.logger.IsTrace() {
		l.logger.Trace("provider call", "rpc", rpc, "duration", time.Since(start), "error", err)
	}
	return err
}

// count returns how many times rpc (its protocol 5 or 6 name) was sent.
func (l *callLog) count(rpc string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.counts[rpc]
}
