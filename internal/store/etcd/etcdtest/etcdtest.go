package etcdtest

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Binary is the etcd server executable; ETCD_BINARY overrides it.
func Binary() string {
	if path := os.Getenv("ETCD_BINARY"); path != "" {
		return path
	}
	if path, err := exec.LookPath("etcd"); err == nil {
		return path
	}
	return "/usr/bin/etcd"
}

// Server is a running single-member etcd.
type Server struct {
	// Endpoint is the client URL, e.g. http://127.0.0.1:40123.
	Endpoint string
	// TLS is the client configuration of a server started with StartTLS.
	TLS     *tls.Config
	args    []string
	dataDir string
	logPath string
	cmd     *exec.Cmd
	exited  chan struct{}
}

// Start launches etcd and waits until it answers. Without the binary the
// test is skipped, or fails when the CI environment variable is set, so a
// CI machine cannot silently skip the etcd suite.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartWith(t)
}

// StartWith is Start with extra etcd flags, such as "--max-txn-ops=16".
func StartWith(t testing.TB, flags ...string) *Server {
	t.Helper()
	return startTesting(t, nil, flags)
}

// StartTLS starts etcd serving clients over TLS with certFile and keyFile
// and requiring client certificates signed by caFile; client is the
// configuration its clients (and the readiness check) use.
func StartTLS(t testing.TB, certFile, keyFile, caFile string, client *tls.Config) *Server {
	t.Helper()
	return startTesting(t, client, []string{"--cert-file", certFile, "--key-file", keyFile, "--client-cert-auth", "--trusted-ca-file", caFile})
}

func startTesting(t testing.TB, client *tls.Config, flags []string) *Server {
	t.Helper()
	if _, err := os.Stat(Binary()); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("etcd server binary %s not found (install Debian's etcd-server or set ETCD_BINARY): %v", Binary(), err)
		}
		t.Skipf("etcd server binary %s not found; install Debian's etcd-server or set ETCD_BINARY to run this test", Binary())
	}
	dir := t.TempDir()
	var lastErr error
	for range 3 { // a port picked as free may be taken before etcd binds it
		s, err := start(dir, client, flags)
		if err == nil {
			t.Cleanup(s.Stop)
			return s
		}
		lastErr = err
	}
	t.Fatalf("starting etcd: %v", lastErr)
	return nil
}

func start(dir string, client *tls.Config, flags []string) (*Server, error) {
	clientPort, err := freePort()
	if err != nil {
		return nil, err
	}
	peerPort, err := freePort()
	if err != nil {
		return nil, err
	}
	scheme := "http"
	if client != nil {
		scheme = "https"
	}
	clientURL := fmt.Sprintf("%s://127.0.0.1:%d", scheme, clientPort)
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", peerPort)
	s := &Server{
		Endpoint: clientURL,
		TLS:      client,
		dataDir:  filepath.Join(dir, "data"),
		logPath:  filepath.Join(dir, "etcd.log"),
		args: []string{
			"--name", "test",
			"--data-dir", filepath.Join(dir, "data"),
			"--listen-client-urls", clientURL, "--advertise-client-urls", clientURL,
			"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
			"--initial-cluster", "test=" + peerURL,
			"--logger", "zap", "--log-level", "error",
		},
	}
	s.args = append(s.args, flags...)
	if err := s.launch(); err != nil {
		return nil, err
	}
	return s, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (s *Server) launch() error {
	logFile, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	s.cmd = exec.Command(Binary(), s.args...)
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("running %s: %w", Binary(), err)
	}
	s.exited = make(chan struct{})
	go func(cmd *exec.Cmd, exited chan struct{}) {
		_ = cmd.Wait()
		close(exited)
	}(s.cmd, s.exited)
	if err := s.waitReady(20 * time.Second); err != nil {
		s.Stop()
		log, _ := os.ReadFile(s.logPath)
		return fmt.Errorf("%w; etcd log:\n%s", err, log)
	}
	return nil
}

func (s *Server) waitReady(timeout time.Duration) error {
	client, err := clientv3.New(clientv3.Config{Endpoints: []string{s.Endpoint}, TLS: s.TLS, DialTimeout: timeout, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer client.Close()
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := client.Get(ctx, "etcdtest-ready")
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-s.exited:
			return fmt.Errorf("etcd exited before answering")
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("etcd at %s did not answer within %s: %w", s.Endpoint, timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop kills etcd and waits for it to exit. Stopping twice is harmless.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
}

// Restart stops etcd and starts it again on the same ports and data, so
// tests can check that clients ride out a server restart.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.Stop()
	if err := s.launch(); err != nil {
		t.Fatalf("restarting etcd: %v", err)
	}
}

// DataDir is the server's data directory (its write-ahead log and
// database), for tests that inspect what etcd stored on disk.
func (s *Server) DataDir() string { return s.dataDir }

// Client returns a client of the server, closed when the test ends.
func (s *Server) Client(t testing.TB) *clientv3.Client {
	t.Helper()
	client, err := clientv3.New(clientv3.Config{Endpoints: []string{s.Endpoint}, TLS: s.TLS, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

// Pid is the etcd process's id, for reading its resource use.
func (s *Server) Pid() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}
