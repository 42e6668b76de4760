package resourceservice

import (
	"context"
	"crypto/tls"
	"errors"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/storev1"
)

// Server is the gRPC face of a Service: hashicorp.consul.resource.ResourceService
// and Terrane's terrane.store.v1.BatchService, with token authorization.
type Server struct {
	pbresource.UnimplementedResourceServiceServer
	service *Service
	tokens  *Tokens
	watches *watchLimiter
}

// NewServer returns a server for svc; tokens may be nil to allow everyone.
func NewServer(svc *Service, tokens *Tokens, limits WatchLimits) *Server {
	return &Server{service: svc, tokens: tokens, watches: newWatchLimiter(limits)}
}

// ServerOptions configure NewGRPCServer.
type ServerOptions struct {
	// TLS, when set, makes the server speak TLS only.
	TLS *tls.Config
	// Watches bound the WatchList streams of one caller.
	Watches WatchLimits
}

// Keepalive settings: the server pings a connection that has been quiet
// this long and drops it if no answer comes, so a client that vanished
// (its machine lost, a network partition) does not hold its watches open
// forever; clients may ping no more often than keepaliveMinPing.
const (
	keepaliveTime    = time.Minute
	keepaliveTimeout = 20 * time.Second
	keepaliveMinPing = 10 * time.Second
)

// NewGRPCServer returns a gRPC server carrying both services.
func NewGRPCServer(svc *Service, tokens *Tokens, opts ServerOptions) *grpc.Server {
	limits := opts.Watches.withDefaults()
	grpcOpts := []grpc.ServerOption{
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: keepaliveTime, Timeout: keepaliveTimeout}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: keepaliveMinPing, PermitWithoutStream: true}),
		// Room for every watch a connection may hold, and as many calls
		// beside them; past that HTTP/2 makes new streams wait.
		grpc.MaxConcurrentStreams(uint32(2 * limits.PerConnection)),
	}
	if opts.TLS != nil {
		grpcOpts = append(grpcOpts, grpc.Creds(credentials.NewTLS(opts.TLS)))
	}
	server := grpc.NewServer(grpcOpts...)
	s := NewServer(svc, tokens, limits)
	pbresource.RegisterResourceServiceServer(server, s)
	storev1.RegisterBatchServiceServer(server, &batchServer{service: svc, tokens: tokens})
	return server
}

// toStatus converts a service error for the wire. A GroupVersion mismatch
// carries the stored resource as a detail so clients can convert it.
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	st := status.Convert(err)
	var mismatch store.GroupVersionMismatchError
	if errors.As(err, &mismatch) {
		if detailed, detailErr := st.WithDetails(mismatch.Stored); detailErr == nil {
			st = detailed
		}
	}
	return st.Err()
}

// Read implements ResourceService.Read.
func (s *Server) Read(ctx context.Context, req *pbresource.ReadRequest) (*pbresource.ReadResponse, error) {
	if _, err := s.tokens.authorizeTenancy(ctx, req.GetId().GetTenancy()); err != nil {
		return nil, err
	}
	res, err := s.service.Read(ctx, consistencyFrom(ctx), req.GetId())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pbresource.ReadResponse{Resource: res}, nil
}

// Write implements ResourceService.Write.
func (s *Server) Write(ctx context.Context, req *pbresource.WriteRequest) (*pbresource.WriteResponse, error) {
	if err := s.authorizeResource(ctx, req.GetResource()); err != nil {
		return nil, err
	}
	res, err := s.service.Write(ctx, req.GetResource())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pbresource.WriteResponse{Resource: res}, nil
}

func (s *Server) authorizeResource(ctx context.Context, res *pbresource.Resource) error {
	if _, err := s.tokens.authorizeTenancy(ctx, res.GetId().GetTenancy()); err != nil {
		return err
	}
	if res.GetOwner() != nil {
		_, err := s.tokens.authorizeTenancy(ctx, res.GetOwner().GetTenancy())
		return err
	}
	return nil
}

// WriteStatus implements ResourceService.WriteStatus.
func (s *Server) WriteStatus(ctx context.Context, req *pbresource.WriteStatusRequest) (*pbresource.WriteStatusResponse, error) {
	if _, err := s.tokens.authorizeTenancy(ctx, req.GetId().GetTenancy()); err != nil {
		return nil, err
	}
	res, err := s.service.WriteStatus(ctx, req.GetId(), req.GetVersion(), req.GetKey(), req.GetStatus())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pbresource.WriteStatusResponse{Resource: res}, nil
}

// List implements ResourceService.List. A token limited to one tenancy sees
// only that tenancy's resources in a wildcard list.
func (s *Server) List(ctx context.Context, req *pbresource.ListRequest) (*pbresource.ListResponse, error) {
	grant, err := s.authorizeQuery(ctx, req.GetTenancy())
	if err != nil {
		return nil, err
	}
	list, err := s.service.List(ctx, consistencyFrom(ctx), req.GetType(), req.GetTenancy(), req.GetNamePrefix())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pbresource.ListResponse{Resources: allowedOnly(grant, list)}, nil
}

// authorizeQuery checks a List or WatchList tenancy: a concrete unit outside
// the grant is PermissionDenied; wildcards are narrowed by filtering.
func (s *Server) authorizeQuery(ctx context.Context, tenancy *pbresource.Tenancy) (Grant, error) {
	grant, err := s.tokens.authorize(ctx)
	if err != nil {
		return grant, err
	}
	query, err := normalizeTenancy(tenancy, true)
	if err != nil {
		return grant, err
	}
	overlaps := func(granted, wanted string) bool {
		return granted == store.Wildcard || wanted == store.Wildcard || granted == wanted
	}
	if !overlaps(grant.Partition, query.GetPartition()) || !overlaps(grant.Namespace, query.GetNamespace()) {
		return grant, errorf(codes.PermissionDenied, "the token does not grant access to tenancy %s/%s", query.GetPartition(), query.GetNamespace())
	}
	return grant, nil
}

func allowedOnly(grant Grant, list []*pbresource.Resource) []*pbresource.Resource {
	if grant == FullAccess {
		return list
	}
	allowed := list[:0:0]
	for _, res := range list {
		if grant.allows(res.GetId().GetTenancy()) {
			allowed = append(allowed, res)
		}
	}
	return allowed
}

// ListByOwner implements ResourceService.ListByOwner.
func (s *Server) ListByOwner(ctx context.Context, req *pbresource.ListByOwnerRequest) (*pbresource.ListByOwnerResponse, error) {
	grant, err := s.tokens.authorizeTenancy(ctx, req.GetOwner().GetTenancy())
	if err != nil {
		return nil, err
	}
	list, err := s.service.ListByOwner(ctx, req.GetOwner())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pbresource.ListByOwnerResponse{Resources: allowedOnly(grant, list)}, nil
}

// Delete implements ResourceService.Delete.
func (s *Server) Delete(ctx context.Context, req *pbresource.DeleteRequest) (*pbresource.DeleteResponse, error) {
	if _, err := s.tokens.authorizeTenancy(ctx, req.GetId().GetTenancy()); err != nil {
		return nil, err
	}
	opts := DeleteOptions{Version: req.GetVersion(), Force: metadataValue(ctx, ForceDeleteMetadataKey) == "true"}
	if err := s.service.Delete(ctx, req.GetId(), opts); err != nil {
		return nil, toStatus(err)
	}
	return &pbresource.DeleteResponse{}, nil
}

// MutateAndValidate implements ResourceService.MutateAndValidate.
func (s *Server) MutateAndValidate(ctx context.Context, req *pbresource.MutateAndValidateRequest) (*pbresource.MutateAndValidateResponse, error) {
	if err := s.authorizeResource(ctx, req.GetResource()); err != nil {
		return nil, err
	}
	res, err := s.service.MutateAndValidate(ctx, req.GetResource())
	if err != nil {
		return nil, toStatus(err)
	}
	return &pbresource.MutateAndValidateResponse{Resource: res}, nil
}

// WatchList implements ResourceService.WatchList: the snapshot as upserts,
// EndOfSnapshot, then deltas in the order the store applied them.
func (s *Server) WatchList(req *pbresource.WatchListRequest, stream grpc.ServerStreamingServer[pbresource.WatchEvent]) error {
	ctx := stream.Context()
	grant, err := s.authorizeQuery(ctx, req.GetTenancy())
	if err != nil {
		return err
	}
	release, err := s.watches.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	watch, err := s.service.WatchList(ctx, req.GetType(), req.GetTenancy(), req.GetNamePrefix())
	if err != nil {
		return toStatus(err)
	}
	defer watch.Close()
	for {
		event, err := watch.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return status.FromContextError(ctx.Err()).Err()
			}
			return status.Errorf(codes.Unavailable, "watch ended: %v", err)
		}
		if event.Resource != nil && !grant.allows(event.Resource.GetId().GetTenancy()) {
			continue
		}
		if err := stream.Send(watchEventToProto(event)); err != nil {
			return err
		}
	}
}

func watchEventToProto(event store.WatchEvent) *pbresource.WatchEvent {
	switch event.Kind {
	case store.EventUpsert:
		return &pbresource.WatchEvent{Event: &pbresource.WatchEvent_Upsert_{Upsert: &pbresource.WatchEvent_Upsert{Resource: event.Resource}}}
	case store.EventDelete:
		return &pbresource.WatchEvent{Event: &pbresource.WatchEvent_Delete_{Delete: &pbresource.WatchEvent_Delete{Resource: event.Resource}}}
	default:
		return &pbresource.WatchEvent{Event: &pbresource.WatchEvent_EndOfSnapshot_{EndOfSnapshot: &pbresource.WatchEvent_EndOfSnapshot{}}}
	}
}
