package etcd

import (
	"context"
	"fmt"
	"strconv"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/proto"
)

// maxBatchAttempts bounds how often a batch is re-read and retried after
// another writer changed one of its keys between the read and the commit.
const maxBatchAttempts = 10

// stored is what a key holds: its resource (nil if absent) and mod revision.
type stored struct {
	resource    *pbresource.Resource
	modRevision int64
}

// WriteCAS implements store.Backend.
func (b *Backend) WriteCAS(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error) {
	return store.WriteOne(ctx, b.Batch, res)
}

// DeleteCAS implements store.Backend.
func (b *Backend) DeleteCAS(ctx context.Context, id *pbresource.ID, version string) error {
	return store.DeleteOne(ctx, b.Batch, id, version)
}

// Batch implements store.Backend. It reads the current state of every key,
// checks each operation's CAS rules against it, and commits the result in
// transactions that compare each key's mod revision with what was read; see
// the package documentation for batches above the transaction limit.
func (b *Backend) Batch(ctx context.Context, ops []store.Op) ([]*pbresource.Resource, error) {
	if b.isClosed() {
		return nil, store.ErrClosed
	}
	for i, op := range ops {
		if op.Kind != store.OpWrite && op.Kind != store.OpDelete {
			return nil, &store.BatchError{Index: i, Err: store.UnknownOpError(op.Kind)}
		}
	}
	ctx, done := b.opContext(ctx)
	defer done()
	out := make([]*pbresource.Resource, len(ops))
	for start, attempt := 0, 0; start < len(ops); attempt++ {
		if attempt == maxBatchAttempts {
			return nil, fmt.Errorf("writing a batch to etcd: resources kept changing under concurrent writers after %d attempts; retry later", attempt)
		}
		applied, err := b.applyFrom(ctx, ops, start, out)
		if err != nil {
			return nil, err
		}
		start += applied
	}
	return out, nil
}

// applyFrom commits ops[start:] chunk by chunk and returns how many it
// applied before a chunk lost a race with another writer (then the caller
// re-reads and continues from there).
func (b *Backend) applyFrom(ctx context.Context, ops []store.Op, start int, out []*pbresource.Resource) (int, error) {
	current, err := b.getMany(ctx, opKeys(b.keys, ops[start:]), 0)
	if err != nil {
		return 0, b.requestError("reading the resources of a batch", err)
	}
	// Check every remaining operation before writing any, so a CAS failure
	// anywhere leaves the store untouched.
	if err := b.check(ops, start, current); err != nil {
		return 0, err
	}
	applied := 0
	for applied < len(ops)-start {
		chunk := b.nextChunk(ops[start+applied:], current)
		ok, err := b.commitChunk(ctx, ops[start+applied:start+applied+chunk], current, out[start+applied:])
		if err != nil || !ok {
			return applied, err
		}
		applied += chunk
	}
	return applied, nil
}

func opKeys(k keys, ops []store.Op) []string {
	out := make([]string, 0, len(ops))
	for _, op := range ops {
		out = append(out, k.resource(op.OpID()))
	}
	return out
}

// check runs the CAS rules of ops[start:] in order against a copy of current.
func (b *Backend) check(ops []store.Op, start int, current map[string]stored) error {
	state := make(map[string]*pbresource.Resource, len(current))
	for key, s := range current {
		state[key] = s.resource
	}
	for i := start; i < len(ops); i++ {
		key := b.keys.resource(ops[i].OpID())
		var err error
		if ops[i].Kind == store.OpWrite {
			if err = store.CheckWrite(state[key], ops[i].Resource); err == nil {
				state[key] = pendingWrite(ops[i].Resource)
			}
		} else if err = store.CheckDelete(state[key], ops[i].Version); err == nil {
			state[key] = nil
		}
		if err != nil {
			return &store.BatchError{Index: i, Err: err}
		}
	}
	return nil
}

// pendingWrite stands for a resource written earlier in the same batch: its
// Version is not known until the commit, so no later operation can name it.
func pendingWrite(res *pbresource.Resource) *pbresource.Resource {
	return &pbresource.Resource{Id: res.GetId(), Owner: res.GetOwner(), Version: "(written earlier in this batch)"}
}

// nextChunk returns how many of ops fit in one transaction: etcd limits
// the comparisons (one per distinct key) and the operations of a
// transaction to MaxTxnOps each, and the request's size. A key costs one
// to three operations (its record, and removing and adding an owner index
// entry), counted from what current holds, so that a transaction carries
// as much as it may; its bytes are its record's and its keys'.
func (b *Backend) nextChunk(ops []store.Op, current map[string]stored) int {
	type cost struct{ ops, bytes int }
	costs := map[string]cost{}
	var total cost
	for i, op := range ops {
		key := b.keys.resource(op.OpID())
		previous, seen := costs[key]
		next := cost{ops: txnOps(current[key].resource, op), bytes: 3*len(key) + proto.Size(op.Resource)}
		sum := cost{ops: total.ops - previous.ops + next.ops, bytes: total.bytes - previous.bytes + next.bytes}
		if sum.ops > b.opts.MaxTxnOps || sum.bytes > b.opts.MaxTxnBytes || (!seen && len(costs) == b.opts.MaxTxnOps) {
			return max(i, 1)
		}
		total = sum
		costs[key] = next
	}
	return len(ops)
}

// txnOps is how many etcd operations recordOps makes to apply op to a key
// holding old.
func txnOps(old *pbresource.Resource, op store.Op) int {
	var updated *pbresource.Resource
	if op.Kind == store.OpWrite {
		updated = op.Resource
	}
	oldOwner, newOwner := old.GetOwner(), updated.GetOwner()
	sameOwner := oldOwner != nil && newOwner != nil && store.SameOwner(oldOwner, newOwner)
	n := 1 // the record's put or delete
	if oldOwner != nil && !sameOwner {
		n++
	}
	if updated != nil && newOwner != nil && !sameOwner {
		n++
	}
	return n
}

// commitChunk commits ops as one transaction. It returns false, with nothing
// written, if another writer changed one of the keys since it was read.
func (b *Backend) commitChunk(ctx context.Context, ops []store.Op, current map[string]stored, out []*pbresource.Resource) (bool, error) {
	final := map[string]*pbresource.Resource{} // key → resource to store, nil to delete
	var order []string
	for _, op := range ops {
		key := b.keys.resource(op.OpID())
		if _, ok := final[key]; !ok {
			order = append(order, key)
		}
		final[key] = nil
		if op.Kind == store.OpWrite {
			final[key] = op.Resource
		}
	}
	var compares []clientv3.Cmp
	var writes []clientv3.Op
	for _, key := range order {
		compares = append(compares, clientv3.Compare(clientv3.ModRevision(key), "=", current[key].modRevision))
		ownerOps, err := b.recordOps(key, current[key].resource, final[key])
		if err != nil {
			return false, err
		}
		writes = append(writes, ownerOps...)
	}
	resp, err := b.client.Txn(ctx).If(compares...).Then(writes...).Commit()
	if err != nil {
		return false, b.requestError("writing a batch", err)
	}
	if !resp.Succeeded {
		return false, nil
	}
	revision := resp.Header.Revision
	for _, key := range order {
		current[key] = stored{}
		if res := final[key]; res != nil {
			written := store.Clone(res)
			written.Version = strconv.FormatInt(revision, 10)
			current[key] = stored{resource: written, modRevision: revision}
		}
	}
	for i, op := range ops {
		if op.Kind == store.OpWrite {
			out[i] = store.Clone(current[b.keys.resource(op.Resource.GetId())].resource)
		}
	}
	return true, nil
}

// recordOps are the etcd operations that turn the key's old resource into
// the new one (nil deletes), owner index included.
func (b *Backend) recordOps(key string, old, updated *pbresource.Resource) ([]clientv3.Op, error) {
	var ops []clientv3.Op
	oldOwner, newOwner := old.GetOwner(), updated.GetOwner()
	if oldOwner != nil && !(newOwner != nil && store.SameOwner(oldOwner, newOwner)) {
		ops = append(ops, clientv3.OpDelete(b.keys.ownerEntry(oldOwner, old.GetId())))
	}
	if updated == nil {
		return append(ops, clientv3.OpDelete(key)), nil
	}
	body, err := encode(updated)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", describe(updated.GetId()), err)
	}
	ops = append(ops, clientv3.OpPut(key, string(body)))
	if newOwner != nil && !(oldOwner != nil && store.SameOwner(oldOwner, newOwner)) {
		ops = append(ops, clientv3.OpPut(b.keys.ownerEntry(newOwner, updated.GetId()), key))
	}
	return ops, nil
}

// getMany reads keys (duplicates allowed) at one revision (0: the latest),
// MaxTxnOps per transaction. Absent keys map to a zero stored.
func (b *Backend) getMany(ctx context.Context, keys []string, revision int64) (map[string]stored, error) {
	out := make(map[string]stored, len(keys))
	var unique []string
	for _, key := range keys {
		if _, ok := out[key]; !ok {
			out[key] = stored{}
			unique = append(unique, key)
		}
	}
	for len(unique) > 0 {
		chunk := unique[:min(len(unique), b.opts.MaxTxnOps)]
		unique = unique[len(chunk):]
		gets := make([]clientv3.Op, len(chunk))
		for i, key := range chunk {
			gets[i] = clientv3.OpGet(key, clientv3.WithRev(revision))
		}
		resp, err := b.client.Txn(ctx).Then(gets...).Commit()
		if err != nil {
			return nil, err
		}
		if revision == 0 {
			revision = resp.Header.Revision
		}
		for _, r := range resp.Responses {
			for _, kv := range r.GetResponseRange().Kvs {
				res, err := decode(kv)
				if err != nil {
					return nil, err
				}
				out[string(kv.Key)] = stored{resource: res, modRevision: kv.ModRevision}
			}
		}
	}
	return out, nil
}
