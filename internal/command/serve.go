package command

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd"
	"github.com/terrane/terrane/internal/store/sqlite"
)

// runServe implements `terrane serve`: it serves a store as Consul's
// ResourceService (plus Terrane's BatchService) until interrupted.
func runServe(streams views.Streams, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveUntil(ctx, args, streams.Stdout, streams.Stderr)
}

func serveUntil(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opts, ds := arguments.ParseServe(args)
	if ds.HasErrors() {
		return writeArgumentFailure(stderr, opts.FlagOutput, ds)
	}
	if err := serve(ctx, opts, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

func serve(ctx context.Context, opts *arguments.Serve, stdout, stderr io.Writer) error {
	tokens, err := resourceservice.ParseTokens(opts.Tokens)
	if err != nil {
		return fmt.Errorf("-token: %w", err)
	}
	tlsConfig, err := loadServerTLS(opts.TLSCert, opts.TLSKey)
	if err != nil {
		return err
	}
	backend, err := openBackend(opts.Backend)
	if err != nil {
		return err
	}
	defer backend.Close()
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		return err
	}
	service := resourceservice.New(backend, registry)
	listener, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fmt.Errorf("-listen %s: %w", opts.Listen, err)
	}
	if err := checkExposure(listener.Addr(), tlsConfig, len(opts.Tokens) > 0, opts.Insecure, stderr); err != nil {
		listener.Close()
		return err
	}
	stopControlPlane, err := startControlPlane(ctx, opts.ControlPlane, controlPlaneDeps{service: service, tokens: tokens, tls: tlsConfig, insecure: opts.Insecure}, stdout, stderr)
	if err != nil {
		listener.Close()
		return err
	}
	defer stopControlPlane()
	server := resourceservice.NewGRPCServer(service, tokens, resourceservice.ServerOptions{TLS: tlsConfig, Watches: opts.Watches})
	reaperCtx, stopReaper := context.WithCancel(ctx)
	defer stopReaper()
	go func() {
		reaper := &resourceservice.Reaper{Service: service, Logf: func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }}
		if err := reaper.Run(reaperCtx); err != nil {
			fmt.Fprintf(stderr, "Warning: %v\n", err)
		}
	}()
	fmt.Fprintf(stdout, "Terrane store serving %s on %s\n", opts.Backend, listener.Addr())
	served := make(chan error, 1)
	go func() { served <- server.Serve(listener) }()
	select {
	case <-ctx.Done():
		server.GracefulStop()
		return nil
	case err := <-served:
		return fmt.Errorf("serving on %s: %w", listener.Addr(), err)
	}
}

func loadServerTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, errors.New("-tls-cert and -tls-key must be given together")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("loading -tls-cert %s and -tls-key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// checkExposure refuses a listener other machines can reach without TLS
// or without a token, unless -insecure says the network is trusted; then
// it warns instead. Loopback listeners need neither.
func checkExposure(addr net.Addr, tlsConfig *tls.Config, hasTokens, insecure bool, stderr io.Writer) error {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP.IsLoopback() {
		return nil
	}
	var problems []string
	if !hasTokens {
		problems = append(problems, "no -token is set, so anyone who can connect can read and change state")
	}
	if tlsConfig == nil {
		problems = append(problems, "there is no TLS (-tls-cert, -tls-key), so state and tokens cross the network in clear text")
	}
	if len(problems) == 0 {
		return nil
	}
	if !insecure {
		return fmt.Errorf("%s is reachable from other machines, but %s. Give -tls-cert, -tls-key and -token, listen on a loopback address (-listen 127.0.0.1:PORT), or give -insecure to serve like this on a network you trust", addr, strings.Join(problems, ", and "))
	}
	for _, problem := range problems {
		fmt.Fprintf(stderr, "Warning: %s is reachable from other machines and %s (-insecure).\n", addr, problem)
	}
	return nil
}

// writeArgumentFailure writes why serve, watch or status refused its
// command line, and returns the exit code: what the flag package wrote
// (the error and every flag's usage), or the error alone.
func writeArgumentFailure(w io.Writer, flagOutput string, ds diags.Diagnostics) int {
	if flagOutput != "" {
		fmt.Fprint(w, flagOutput)
		return 1
	}
	for _, d := range ds {
		if d.Severity == diags.Error {
			fmt.Fprintf(w, "Error: %s\n", d.Detail)
		}
	}
	return 1
}

// openBackend opens the store named by a -backend URL.
func openBackend(spec string) (store.Backend, error) {
	scheme, rest, ok := strings.Cut(spec, "://")
	switch {
	case !ok:
		return nil, fmt.Errorf("-backend %q: expected sqlite://PATH or etcd://HOST:PORT,...", spec)
	case scheme == "sqlite" && rest != "":
		return sqlite.Open(rest, sqlite.Options{BackupDir: filepath.Join(filepath.Dir(rest), "backups")})
	case scheme == "etcd" && rest != "":
		var endpoints []string
		for _, endpoint := range strings.Split(rest, ",") {
			if endpoint = strings.TrimSpace(endpoint); endpoint != "" {
				endpoints = append(endpoints, "http://"+strings.TrimPrefix(endpoint, "http://"))
			}
		}
		return etcd.Open(endpoints, etcd.Options{})
	default:
		return nil, fmt.Errorf("-backend %q: unknown store; expected sqlite://PATH or etcd://HOST:PORT,...", spec)
	}
}
