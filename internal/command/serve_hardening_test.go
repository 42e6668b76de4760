package command

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/tlstest"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// TestServeRefusesAnExposedListenerWithoutTLSAndToken: serve on an address
// other machines can reach starts only with TLS and a token, or when told
// -insecure; a loopback address needs neither.
func TestServeRefusesAnExposedListenerWithoutTLSAndToken(t *testing.T) {
	t.Parallel()
	certFile, keyFile := tlstest.WriteCertificate(t, t.TempDir())
	tests := []struct {
		name  string
		args  []string
		start bool
		want  []string
	}{
		{"neither", []string{"-listen", "0.0.0.0:0"}, false, []string{"reachable from other machines", "no -token", "no TLS", "-insecure"}},
		{"token without TLS", []string{"-listen", "0.0.0.0:0", "-token", "s3cret"}, false, []string{"no TLS", "-insecure"}},
		{"TLS without token", []string{"-listen", "0.0.0.0:0", "-tls-cert", certFile, "-tls-key", keyFile}, false, []string{"no -token"}},
		{"insecure", []string{"-listen", "0.0.0.0:0", "-insecure"}, true, []string{"Warning:", "-insecure"}},
		{"TLS and token", []string{"-listen", "0.0.0.0:0", "-token", "s3cret", "-tls-cert", certFile, "-tls-key", keyFile}, true, nil},
		{"loopback", []string{"-listen", "127.0.0.1:0"}, true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-backend", "sqlite://" + filepath.Join(t.TempDir(), "state.db")}, tc.args...)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			stdout, stderr := &clitest.SyncBuffer{}, &clitest.SyncBuffer{}
			done := make(chan int, 1)
			go func() { done <- serveUntil(ctx, args, stdout, stderr) }()
			if !tc.start {
				select {
				case code := <-done:
					if code != 1 {
						t.Fatalf("serve %v exited %d, want 1", tc.args, code)
					}
				case <-time.After(30 * time.Second):
					t.Fatalf("serve %v started:\n%s", tc.args, stdout.String())
				}
				clitest.AssertContains(t, "refusal", stderr.String(), tc.want...)
				return
			}
			clitest.WaitFor(t, "serve start", stdout, regexp.MustCompile(`serving \S+ on (\S+)`))
			cancel()
			if code := <-done; code != 0 {
				t.Fatalf("serve %v exited %d: %s", tc.args, code, stderr.String())
			}
			clitest.AssertContains(t, "warnings", stderr.String(), tc.want...)
		})
	}
}

func expectExhausted(t *testing.T, what string, err error, wantText string) {
	t.Helper()
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), wantText) {
		t.Errorf("%s: %v, want ResourceExhausted saying %q", what, err, wantText)
	}
}

// TestServeLimitsWatches holds WatchList streams open until the limits per
// connection and per token refuse more, naming the limit, and checks that
// a stream that ends gives its place back.
func TestServeLimitsWatches(t *testing.T) {
	t.Parallel()
	addr := startServe(t, "-token", "s3cret", "-max-watches-per-connection", "3", "-max-watches-per-token", "5")
	first, second := clitest.DialWatchClient(t, addr, "s3cret"), clitest.DialWatchClient(t, addr, "s3cret")
	var cancels []context.CancelFunc
	for i := range 3 {
		cancel, err := first.Open()
		if err != nil {
			t.Fatalf("watch %d on the first connection: %v", i+1, err)
		}
		cancels = append(cancels, cancel)
	}
	_, err := first.Open()
	expectExhausted(t, "a fourth watch on one connection", err, "3 watches open, the most one connection may hold")
	for i := range 2 {
		if _, err := second.Open(); err != nil {
			t.Fatalf("watch %d on the second connection: %v", i+1, err)
		}
	}
	_, err = second.Open()
	expectExhausted(t, "a sixth watch of one token", err, "5 watches open, the most one token may hold")
	cancels[0]()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := second.Open()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a watch that ended did not give its place back: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeOversizeEtcdWrite writes a record bigger than etcd takes in one
// request through a serve endpoint on etcd: the answer is ResourceExhausted
// naming the limit, not Internal.
func TestServeOversizeEtcdWrite(t *testing.T) {
	t.Parallel()
	etcdServer := etcdtest.Start(t)
	addr := startServe(t, "-backend", "etcd://"+strings.TrimPrefix(etcdServer.Endpoint, "http://"), "-token", "s3cret")
	service, _ := clitest.RemoteService(t, addr, "s3cret")
	ws := clitest.WriteRecord(t, service, records.WorkspaceID("proj", "prod"), nil, &recordsv1.Workspace{})
	data, err := anypb.New(&recordsv1.ResourceInstance{Mode: recordsv1.ResourceMode_RESOURCE_MODE_MANAGED, Type: "null_resource", Name: "big",
		Provider: `provider["registry.terraform.io/hashicorp/null"]`,
		Current:  &recordsv1.ObjectState{AttributesJson: []byte(`{"id":"1","blob":"` + strings.Repeat("x", 2<<20) + `"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := metadata.AppendToOutgoingContext(t.Context(), resourceservice.TokenMetadataKey, "s3cret")
	_, err = pbresource.NewResourceServiceClient(conn).Write(ctx, &pbresource.WriteRequest{Resource: &pbresource.Resource{
		Id: records.InstanceID("proj", "prod", "null_resource.big"), Owner: ws.GetId(), Data: data}})
	expectExhausted(t, "an oversize write to etcd", err, "1572864 bytes the store accepts")
}
