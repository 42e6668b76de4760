package pulumi

import (
	"context"
	"net"

	"github.com/hashicorp/go-hclog"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/types/known/emptypb"
)

// engineServer is the callback service a Pulumi provider dials: its Log
// messages go to Terrane's log, and its health answers keep the provider
// running (SDK-built providers exit when the engine's health check fails).
type engineServer struct {
	pulumirpc.UnimplementedEngineServer
	logger   hclog.Logger
	server   *grpc.Server
	listener net.Listener
}

// startEngine listens on a loopback port and serves the engine service.
func startEngine(logger hclog.Logger) (*engineServer, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	e := &engineServer{logger: logger, server: grpc.NewServer(), listener: listener}
	pulumirpc.RegisterEngineServer(e.server, e)
	healthServer := health.NewServer()
	healthServer.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(e.server, healthServer)
	go func() { _ = e.server.Serve(listener) }()
	return e, nil
}

// Address is what the provider is given as its engine address.
func (e *engineServer) Address() string { return e.listener.Addr().String() }

func (e *engineServer) stop() { e.server.Stop() }

// Log routes a provider's message into Terrane's log at the matching level.
func (e *engineServer) Log(ctx context.Context, req *pulumirpc.LogRequest) (*emptypb.Empty, error) {
	args := []any{}
	if req.GetUrn() != "" {
		args = append(args, "urn", req.GetUrn())
	}
	switch req.GetSeverity() {
	case pulumirpc.LogSeverity_DEBUG:
		e.logger.Debug(req.GetMessage(), args...)
	case pulumirpc.LogSeverity_WARNING:
		e.logger.Warn(req.GetMessage(), args...)
	case pulumirpc.LogSeverity_ERROR:
		e.logger.Error(req.GetMessage(), args...)
	default:
		e.logger.Info(req.GetMessage(), args...)
	}
	return &emptypb.Empty{}, nil
}
