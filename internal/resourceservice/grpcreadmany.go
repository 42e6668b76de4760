package resourceservice

import (
	"context"

	"google.golang.org/grpc/codes"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/storev1"
)

// ReadMany serves BatchService.ReadMany: the backend's multi-read, so a
// remote engine learns what a batch will change in one round trip rather
// than one Read per resource. Every ID's tenancy must be granted.
func (b *batchServer) ReadMany(ctx context.Context, req *storev1.ReadManyRequest) (*storev1.ReadManyResponse, error) {
	for i, id := range req.GetIds() {
		if id.GetType() == nil {
			return nil, errorf(codes.InvalidArgument, "ID %d has no type", i)
		}
		if _, err := b.tokens.authorizeTenancy(ctx, id.GetTenancy()); err != nil {
			return nil, err
		}
	}
	consistency := store.EventualConsistency
	if req.GetConsistent() {
		consistency = store.StrongConsistency
	}
	found, err := b.backend.ReadMany(ctx, consistency, req.GetIds())
	if err != nil {
		return nil, toStatus(fromStore(err, "reading resources"))
	}
	for i := range found {
		if found[i] == nil {
			found[i] = &pbresource.Resource{} // a repeated field cannot carry nil
		}
	}
	return &storev1.ReadManyResponse{Resources: found}, nil
}
