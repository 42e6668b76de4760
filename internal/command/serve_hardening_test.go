package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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
	"github.com/terrane/terrane/internal/testing/procstat"
	"github.com/terrane/terrane/internal/testing/tlstest"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// TestServeRefusesAnExposedListenerWithoutTLSAndToken: serve on an address
// other machines can reach starts only with TLS and a token, or when told
// -insecure; a loopback address needs neither.
func TestServeRefusesAnExposedListenerWithoutTLSAndToken(t *testing.T) {
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
			stdout, stderr := &syncBuffer{}, &syncBuffer{}
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
				assertContains(t, "refusal", stderr.String(), tc.want...)
				return
			}
			waitFor(t, "serve start", stdout, regexp.MustCompile(`serving \S+ on (\S+)`))
			cancel()
			if code := <-done; code != 0 {
				t.Fatalf("serve %v exited %d: %s", tc.args, code, stderr.String())
			}
			assertContains(t, "warnings", stderr.String(), tc.want...)
		})
	}
}

// watchClient opens WatchList streams on one connection to a serve
// endpoint with a token.
type watchClient struct {
	t      *testing.T
	conn   *grpc.ClientConn
	client pbresource.ResourceServiceClient
	token  string
}

func dialWatchClient(t *testing.T, addr, token string) *watchClient {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &watchClient{t: t, conn: conn, client: pbresource.NewResourceServiceClient(conn), token: token}
}

// open starts a watch of every workspace record and reads its snapshot;
// it returns the stream's cancel function, or the error the server gave.
func (c *watchClient) open() (context.CancelFunc, error) {
	ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(c.t.Context(), resourceservice.TokenMetadataKey, c.token))
	stream, err := c.client.WatchList(ctx, &pbresource.WatchListRequest{Type: records.WorkspaceType, Tenancy: &pbresource.Tenancy{Partition: "*", Namespace: "*"}})
	if err != nil {
		cancel()
		return nil, err
	}
	for {
		event, err := stream.Recv()
		if err != nil {
			cancel()
			return nil, err
		}
		if event.GetEndOfSnapshot() != nil {
			return cancel, nil
		}
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
	addr := startServe(t, "-token", "s3cret", "-max-watches-per-connection", "3", "-max-watches-per-token", "5")
	first, second := dialWatchClient(t, addr, "s3cret"), dialWatchClient(t, addr, "s3cret")
	var cancels []context.CancelFunc
	for i := range 3 {
		cancel, err := first.open()
		if err != nil {
			t.Fatalf("watch %d on the first connection: %v", i+1, err)
		}
		cancels = append(cancels, cancel)
	}
	_, err := first.open()
	expectExhausted(t, "a fourth watch on one connection", err, "3 watches open, the most one connection may hold")
	for i := range 2 {
		if _, err := second.open(); err != nil {
			t.Fatalf("watch %d on the second connection: %v", i+1, err)
		}
	}
	_, err = second.open()
	expectExhausted(t, "a sixth watch of one token", err, "5 watches open, the most one token may hold")
	cancels[0]()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := second.open()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a watch that ended did not give its place back: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeReturnsWatchMemory floods a serve process with WatchList
// streams, closes them, and checks that its resident memory falls back:
// what the streams held is returned to the operating system once they end.
func TestServeReturnsWatchMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a serve process and opens thousands of streams")
	}
	binary := buildCLI(t)
	const connections, perConnection = 20, 100
	cmd := exec.Command(binary, "serve", "-listen", "127.0.0.1:0", "-backend", "sqlite://"+filepath.Join(t.TempDir(), "state.db"),
		"-token", "s3cret", "-max-watches-per-connection", fmt.Sprint(perConnection), "-max-watches-per-token", fmt.Sprint(connections*perConnection))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve did not start: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	addr := regexp.MustCompile(`on (\S+)`).FindStringSubmatch(line)[1]
	service, _ := remoteService(t, addr, "s3cret")
	for i := range 20 {
		writeRecord(t, service, records.WorkspaceID("proj", fmt.Sprintf("ws%d", i)), nil, &recordsv1.Workspace{})
	}
	rss := func() int64 {
		kib, ok := procstat.RSSKiB(cmd.Process.Pid)
		if !ok {
			t.Skip("/proc does not report the process's memory here")
		}
		return kib
	}
	warm := dialWatchClient(t, addr, "s3cret")
	for range 5 {
		cancel, err := warm.open()
		if err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	time.Sleep(time.Second)
	baseline := rss()
	var clients []*watchClient
	var cancels []context.CancelFunc
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range connections {
		c := dialWatchClient(t, addr, "s3cret")
		clients = append(clients, c)
		wg.Go(func() {
			for range perConnection {
				cancel, err := c.open()
				if err != nil {
					t.Errorf("opening a watch: %v", err)
					return
				}
				mu.Lock()
				cancels = append(cancels, cancel)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	flooded := rss()
	for _, cancel := range cancels {
		cancel()
	}
	for _, c := range clients {
		_ = c.conn.Close()
	}
	allowed := baseline + max(8<<10, (flooded-baseline)/4)
	deadline := time.Now().Add(30 * time.Second)
	after := rss()
	for after > allowed && time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		after = rss()
	}
	t.Logf("serve RSS: %d MiB before, %d MiB with %d watches open, %d MiB after they ended", baseline>>10, flooded>>10, len(cancels), after>>10)
	if after > allowed {
		t.Errorf("serve kept %d MiB after its %d watches ended (%d MiB before them, %d MiB with them open)", after>>10, len(cancels), baseline>>10, flooded>>10)
	}
}

// TestServeOversizeEtcdWrite writes a record bigger than etcd takes in one
// request through a serve endpoint on etcd: the answer is ResourceExhausted
// naming the limit, not Internal.
func TestServeOversizeEtcdWrite(t *testing.T) {
	etcdServer := etcdtest.Start(t)
	addr := startServe(t, "-backend", "etcd://"+strings.TrimPrefix(etcdServer.Endpoint, "http://"), "-token", "s3cret")
	service, _ := remoteService(t, addr, "s3cret")
	ws := writeRecord(t, service, records.WorkspaceID("proj", "prod"), nil, &recordsv1.Workspace{})
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
