package resourceservice

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/storev1"
)

// batchServer serves terrane.store.v1.BatchService: the backend's raw atomic
// batch, for engines that run the service rules themselves over a remote
// store. The client is not trusted to have run them: every operation is
// checked against the rules of Write and Delete (Service.VetRawBatch), and
// every tenancy it touches, owners' included, must be granted to the caller.
type batchServer struct {
	storev1.UnimplementedBatchServiceServer
	service *Service
	tokens  *Tokens
}

func (b *batchServer) Batch(ctx context.Context, req *storev1.BatchRequest) (*storev1.BatchResponse, error) {
	grant, err := b.tokens.authorize(ctx)
	if err != nil {
		return nil, err
	}
	allowed := func(tenancy *pbresource.Tenancy) error {
		if !grant.allows(tenancy) {
			return errorf(codes.PermissionDenied, "the token does not grant access to tenancy %s/%s", tenancy.GetPartition(), tenancy.GetNamespace())
		}
		return nil
	}
	ops := make([]store.Op, len(req.GetOperations()))
	for i, operation := range req.GetOperations() {
		op, err := opFromProto(operation)
		if err != nil {
			return nil, errorf(codes.InvalidArgument, "batch operation %d: %v", i, err)
		}
		ops[i] = op
	}
	var batchErr *store.BatchError
	err = b.service.VetRawBatch(ctx, ops, allowed)
	if err != nil && !(errors.As(err, &batchErr) && failureReason(batchErr.Err) != storev1.Failed_REASON_UNSPECIFIED) {
		return nil, toStatus(err)
	}
	var stored []*pbresource.Resource
	if err == nil {
		stored, err = b.service.backend.Batch(ctx, ops)
	}
	switch {
	case err == nil:
		for i := range stored {
			if stored[i] == nil {
				// A repeated field cannot carry nil; deletes answer empty.
				stored[i] = &pbresource.Resource{}
			}
		}
		return &storev1.BatchResponse{Outcome: &storev1.BatchResponse_Applied{Applied: &storev1.Applied{Resources: stored}}}, nil
	case errors.As(err, &batchErr) && failureReason(batchErr.Err) != storev1.Failed_REASON_UNSPECIFIED:
		return &storev1.BatchResponse{Outcome: &storev1.BatchResponse_Failed{Failed: &storev1.Failed{
			Index: int32(batchErr.Index), Reason: failureReason(batchErr.Err), Message: batchErr.Err.Error(),
		}}}, nil
	default:
		return nil, toStatus(fromStore(err, "applying a batch"))
	}
}

func opFromProto(operation *storev1.Operation) (store.Op, error) {
	switch {
	case operation.GetWrite() != nil:
		res := operation.GetWrite()
		if res.GetId() == nil {
			return store.Op{}, errors.New("the written resource has no ID")
		}
		return store.Op{Kind: store.OpWrite, Resource: res}, nil
	case operation.GetDelete() != nil:
		if operation.GetDelete().GetId() == nil {
			return store.Op{}, errors.New("the delete has no ID")
		}
		return store.Op{Kind: store.OpDelete, ID: operation.GetDelete().GetId(), Version: operation.GetDelete().GetVersion()}, nil
	default:
		return store.Op{}, errors.New("the operation is neither a write nor a delete")
	}
}

func failureReason(err error) storev1.Failed_Reason {
	switch {
	case errors.Is(err, store.ErrCASFailure):
		return storev1.Failed_REASON_CAS_FAILURE
	case errors.Is(err, store.ErrWrongUid):
		return storev1.Failed_REASON_WRONG_UID
	default:
		return storev1.Failed_REASON_UNSPECIFIED
	}
}
