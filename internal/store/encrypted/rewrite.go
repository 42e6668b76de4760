package encrypted

import (
	"context"
	"errors"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// rewriteBatchSize bounds one batch of Rewrite: large enough to amortise a
// commit, small enough for any backend's transaction.
const rewriteBatchSize = 200

// RewriteResult counts what Rewrite did.
type RewriteResult struct {
	// Rewritten records were encrypted again with the current keys.
	Rewritten int
	// Current records were already in the current form.
	Current int
	// Changed records were written by someone else while Rewrite ran;
	// that write used its writer's keys, and Rewrite left it alone.
	Changed int
}

// Rewrite writes every record of resType in tenancy whose data is not in
// the form the cipher writes now again in that form: key rotation and
// migration to or from encryption for records nothing else is writing.
// Each write is a compare-and-swap on the version read, and keeps the
// record's Generation, since its content does not change. Every record is
// decrypted before any is written, so a record that cannot be read leaves
// all of them as they were.
func (b *Backend) Rewrite(ctx context.Context, resType *pbresource.Type, tenancy *pbresource.Tenancy) (RewriteResult, error) {
	var result RewriteResult
	stored, err := b.inner.List(ctx, store.StrongConsistency, resType, tenancy, "")
	if err != nil {
		return result, err
	}
	var stale []*pbresource.Resource
	for _, res := range stored {
		current, err := b.cipher.Current(ctx, res)
		if err != nil {
			return result, err
		}
		if current {
			result.Current++
			continue
		}
		opened, err := b.open(ctx, res)
		if err != nil {
			return result, err
		}
		stale = append(stale, opened)
	}
	for start := 0; start < len(stale); start += rewriteBatchSize {
		chunk := stale[start:min(start+rewriteBatchSize, len(stale))]
		written, changed, err := b.rewriteChunk(ctx, chunk)
		result.Rewritten += written
		result.Changed += changed
		if err != nil {
			return result, err
		}
	}
	return result, nil
}

// rewriteChunk writes chunk in one batch, dropping records whose version
// moved on (reported by the batch) and trying again without them.
func (b *Backend) rewriteChunk(ctx context.Context, chunk []*pbresource.Resource) (written, changed int, err error) {
	for len(chunk) > 0 {
		ops := make([]store.Op, len(chunk))
		for i, res := range chunk {
			ops[i] = store.Op{Kind: store.OpWrite, Resource: res}
		}
		_, err := b.Batch(ctx, ops)
		var batchErr *store.BatchError
		switch {
		case err == nil:
			return written + len(chunk), changed, nil
		case errors.As(err, &batchErr) && (errors.Is(err, store.ErrCASFailure) || errors.Is(err, store.ErrWrongUid)) &&
			batchErr.Index >= 0 && batchErr.Index < len(chunk):
			chunk = append(chunk[:batchErr.Index:batchErr.Index], chunk[batchErr.Index+1:]...)
			changed++
		default:
			return written, changed, err
		}
	}
	return written, changed, nil
}
