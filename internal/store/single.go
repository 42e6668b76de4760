package store

import (
	"context"
	"errors"

	"github.com/terrane/terrane/proto/pbresource"
)

// BatchFunc is a Backend's Batch method.
type BatchFunc func(ctx context.Context, ops []Op) ([]*pbresource.Resource, error)

// WriteOne is WriteCAS for a backend whose Batch does the work: a batch of
// one write, whose *BatchError is unwrapped to the plain CAS error.
func WriteOne(ctx context.Context, batch BatchFunc, res *pbresource.Resource) (*pbresource.Resource, error) {
	out, err := batch(ctx, []Op{{Kind: OpWrite, Resource: res}})
	if err != nil {
		return nil, unwrapBatchError(err)
	}
	return out[0], nil
}

// DeleteOne is DeleteCAS for a backend whose Batch does the work.
func DeleteOne(ctx context.Context, batch BatchFunc, id *pbresource.ID, version string) error {
	_, err := batch(ctx, []Op{{Kind: OpDelete, ID: id, Version: version}})
	return unwrapBatchError(err)
}

func unwrapBatchError(err error) error {
	var batchErr *BatchError
	if errors.As(err, &batchErr) {
		return batchErr.Err
	}
	return err
}
