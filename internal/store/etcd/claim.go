package etcd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/terrane/terrane/internal/store"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// ErrClaimed is returned by Claim when another holder has the key.
var ErrClaimed = errors.New("already claimed")

// Claim is a key held under an etcd lease: it exists while its holder is
// alive and renewing it, and vanishes within its TTL after the holder dies.
type Claim struct {
	Key    string
	lease  clientv3.LeaseID
	client *clientv3.Client
	cancel context.CancelFunc
	lost   chan struct{}
}

// Claim takes key for this process for as long as it keeps running: the
// claim is renewed in the background and lapses ttl (at least 2s, etcd's
// minimum lease) after renewal stops. If someone else holds key, the error
// wraps ErrClaimed and names the holder.
func (b *Backend) Claim(ctx context.Context, key string, ttl time.Duration) (*Claim, error) {
	if b.isClosed() {
		return nil, fmt.Errorf("claiming %s: %w", key, store.ErrClosed)
	}
	seconds := max(int64(ttl/time.Second), 2)
	grant, err := b.client.Grant(ctx, seconds)
	if err != nil {
		return nil, b.requestError("claiming "+key, err)
	}
	fullKey := b.keys.claim(key)
	resp, err := b.client.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(fullKey), "=", 0)).
		Then(clientv3.OpPut(fullKey, holderName(), clientv3.WithLease(grant.ID))).
		Else(clientv3.OpGet(fullKey)).Commit()
	if err != nil || !resp.Succeeded {
		_, _ = b.client.Revoke(context.WithoutCancel(ctx), grant.ID)
	}
	if err != nil {
		return nil, b.requestError("claiming "+key, err)
	}
	if !resp.Succeeded {
		holder := "unknown holder"
		if kvs := resp.Responses[0].GetResponseRange().Kvs; len(kvs) > 0 {
			holder = string(kvs[0].Value)
		}
		return nil, fmt.Errorf("claiming %s: %w by %s", key, ErrClaimed, holder)
	}
	return b.keepClaim(key, grant.ID)
}

func (b *Backend) keepClaim(key string, lease clientv3.LeaseID) (*Claim, error) {
	keepCtx, cancel := context.WithCancel(b.ctx)
	renewals, err := b.client.KeepAlive(keepCtx, lease)
	if err != nil {
		cancel()
		return nil, b.requestError("renewing the claim on "+key, err)
	}
	c := &Claim{Key: key, lease: lease, client: b.client, cancel: cancel, lost: make(chan struct{})}
	go func() {
		for range renewals {
		}
		close(c.lost)
	}()
	return c, nil
}

// Lost is closed when the claim can no longer be renewed (the lease expired,
// the backend was closed, or Release was called).
func (c *Claim) Lost() <-chan struct{} { return c.lost }

// Release gives the claim up at once, so the key is free for others.
func (c *Claim) Release(ctx context.Context) error {
	c.cancel()
	if _, err := c.client.Revoke(ctx, c.lease); err != nil {
		return fmt.Errorf("releasing the claim on %s: %w", c.Key, err)
	}
	return nil
}

// holderName identifies this process in a claim, for the error another
// process gets when it finds the key taken.
func holderName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("pid %d on %s", os.Getpid(), host)
}
