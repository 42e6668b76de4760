package sharedstore

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/tlstest"
)

// Store is a running shared store.
type Store struct {
	// Kind is "etcd" or "serve".
	Kind string
	// Env are the TERRANE_BACKEND_* variables naming the store, as
	// NAME=VALUE.
	Env []string
	// Etcd is the etcd server: the store itself, or the one a serve
	// process fronts.
	Etcd *etcdtest.Server
	// Serve is the serve process, for a serve store.
	Serve *ServeProcess
}

// Setenv sets the store's variables for the rest of the test.
func (s *Store) Setenv(t testing.TB) {
	t.Helper()
	for _, entry := range s.Env {
		name, value, _ := strings.Cut(entry, "=")
		t.Setenv(name, value)
	}
}

// prefixes keeps the key prefixes of one test binary's stores apart.
var prefixes atomic.Int64

// Etcd starts an etcd server and returns a store under its own key prefix.
func Etcd(t testing.TB) *Store {
	t.Helper()
	server := etcdtest.Start(t)
	return EtcdOn(server)
}

// EtcdOn returns a store under a fresh key prefix of a running server.
func EtcdOn(server *etcdtest.Server) *Store {
	prefix := fmt.Sprintf("/terrane-%d-%d/", os.Getpid(), prefixes.Add(1))
	return &Store{Kind: "etcd", Etcd: server, Env: []string{
		"TERRANE_BACKEND_ENDPOINTS=" + server.Endpoint, "TERRANE_BACKEND_PREFIX=" + prefix,
	}}
}

// ServeProcess is a running `terrane serve`.
type ServeProcess struct {
	// Address is host:port; CAFile trusts its certificate; Token is the
	// token it accepts with full access (more may be given to Start).
	Address, CAFile, Token string
	args                   []string
	binary                 string
	cmd                    *exec.Cmd
	exited                 chan struct{}
	logs                   *logBuffer
}

// Serve starts `terrane serve` from binary over TLS, fronting backend (a
// serve -backend URL such as sqlite://PATH or etcd://HOST:PORT), with a
// full-access token and any extra -token specifications given.
func Serve(t testing.TB, binary, backend string, extraTokens ...string) *Store {
	t.Helper()
	dir := t.TempDir()
	certFile, keyFile := tlstest.WriteCertificate(t, dir)
	p := &ServeProcess{CAFile: certFile, Token: fmt.Sprintf("token-%d", time.Now().UnixNano()), binary: binary}
	p.args = []string{"serve", "-listen", "127.0.0.1:0", "-backend", backend, "-tls-cert", certFile, "-tls-key", keyFile, "-token", p.Token}
	for _, spec := range extraTokens {
		p.args = append(p.args, "-token", spec)
	}
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	// Restarts listen where the first start did, so clients find it again.
	for i, arg := range p.args {
		if arg == "127.0.0.1:0" {
			p.args[i] = p.Address
		}
	}
	t.Cleanup(p.Stop)
	return &Store{Kind: "serve", Serve: p, Env: []string{
		"TERRANE_BACKEND_ADDRESS=https://" + p.Address, "TERRANE_BACKEND_CA_FILE=" + certFile, "TERRANE_BACKEND_TOKEN=" + p.Token,
	}}
}

var servingLine = regexp.MustCompile(`serving \S+ on (\S+)`)

func (p *ServeProcess) start() error {
	p.cmd = exec.Command(p.binary, p.args...)
	p.cmd.Env = os.Environ()
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	p.logs = &logBuffer{}
	p.cmd.Stderr = p.logs
	if err := p.cmd.Start(); err != nil {
		return fmt.Errorf("starting %s serve: %w", p.binary, err)
	}
	p.exited = make(chan struct{})
	go func(cmd *exec.Cmd, exited chan struct{}) { _ = cmd.Wait(); close(exited) }(p.cmd, p.exited)
	lines := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			if match := servingLine.FindStringSubmatch(scanner.Text()); match != nil {
				lines <- match[1]
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case addr := <-lines:
		p.Address = addr
		return nil
	case <-p.exited:
		return fmt.Errorf("terrane serve exited before serving: %s", p.logs.String())
	case <-time.After(30 * time.Second):
		p.Stop()
		return fmt.Errorf("terrane serve did not start within 30s: %s", p.logs.String())
	}
}

// Stop ends the process and waits for it. Stopping twice is harmless.
func (p *ServeProcess) Stop() {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// Restart stops the process and starts it again on the same address.
func (p *ServeProcess) Restart(t testing.TB) {
	t.Helper()
	p.Stop()
	if err := p.start(); err != nil {
		t.Fatalf("restarting terrane serve: %v", err)
	}
}

// Pid is the process id, for reading its resource use.
func (p *ServeProcess) Pid() int {
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// logBuffer keeps what the process writes to stderr.
type logBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *logBuffer) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(b)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
