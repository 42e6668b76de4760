package gcpkms

import (
	"testing"

	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// UseStandIn points every client the test makes at a plaintext gRPC
// server on addr, without authentication.
func UseStandIn(t *testing.T, addr string) {
	extraClientOptions = []option.ClientOption{option.WithEndpoint(addr), option.WithoutAuthentication(),
		option.WithGRPCDialOption(grpc.WithTransportCredentials(insecure.NewCredentials()))}
	t.Cleanup(func() { extraClientOptions = nil })
}
