package command

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/etcd"
	"github.com/terrane/terrane/internal/store/sqlite"
)

// tokenEnvVar supplies the serve token, or the client token of watch, without
// putting it on a command line other users can read.
const tokenEnvVar = "TERRANE_TOKEN"

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

type serveOptions struct {
	listen, backend, tlsCert, tlsKey string
	tokens                           stringList
	// insecure allows serving beyond loopback without TLS or a token.
	insecure bool
	watches  resourceservice.WatchLimits
	controlPlaneOptions
}

// runServe implements `terrane serve`: it serves a store as Consul's
// ResourceService (plus Terrane's BatchService) until interrupted.
func runServe(streams views.Streams, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveUntil(ctx, args, streams.Stdout, streams.Stderr)
}

func serveUntil(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var opts serveOptions
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&opts.listen, "listen", "127.0.0.1:8502", "address to listen on (host:port)")
	flags.StringVar(&opts.backend, "backend", "sqlite://.terrane/state.db", "store to serve: sqlite://PATH or etcd://HOST:PORT,...")
	flags.Var(&opts.tokens, "token", "bearer token clients must send (repeatable; TOKEN@PROJECT/WORKSPACE limits it to one tenancy); default $"+tokenEnvVar)
	flags.StringVar(&opts.tlsCert, "tls-cert", "", "PEM certificate file for TLS")
	flags.StringVar(&opts.tlsKey, "tls-key", "", "PEM private key file for TLS")
	flags.BoolVar(&opts.insecure, "insecure", false, "serve on an address other machines can reach without TLS or without a -token (trusted networks only)")
	flags.IntVar(&opts.watches.PerToken, "max-watches-per-token", resourceservice.DefaultWatchesPerToken, "most WatchList streams one token may hold open")
	flags.IntVar(&opts.watches.PerConnection, "max-watches-per-connection", resourceservice.DefaultWatchesPerConnection, "most WatchList streams one client connection may hold open")
	addControlPlaneFlags(flags, &opts.controlPlaneOptions)
	if err := flags.Parse(args); err != nil {
		return 1
	}
	if len(opts.tokens) == 0 && os.Getenv(tokenEnvVar) != "" {
		opts.tokens = stringList{os.Getenv(tokenEnvVar)}
	}
	if err := serve(ctx, opts, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

func serve(ctx context.Context, opts serveOptions, stdout, stderr io.Writer) error {
	tokens, err := resourceservice.ParseTokens(opts.tokens)
	if err != nil {
		return fmt.Errorf("-token: %w", err)
	}
	tlsConfig, err := loadServerTLS(opts.tlsCert, opts.tlsKey)
	if err != nil {
		return err
	}
	backend, err := openBackend(opts.backend)
	if err != nil {
		return err
	}
	defer backend.Close()
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		return err
	}
	service := resourceservice.New(backend, registry)
	listener, err := net.Listen("tcp", opts.listen)
	if err != nil {
		return fmt.Errorf("-listen %s: %w", opts.listen, err)
	}
	if err := checkExposure(listener.Addr(), tlsConfig, len(opts.tokens) > 0, opts.insecure, stderr); err != nil {
		listener.Close()
		return err
	}
	stopControlPlane, err := startControlPlane(ctx, opts.controlPlaneOptions, controlPlaneDeps{service: service, tokens: tokens, tls: tlsConfig, insecure: opts.insecure}, stdout, stderr)
	if err != nil {
		listener.Close()
		return err
	}
	defer stopControlPlane()
	server := resourceservice.NewGRPCServer(service, tokens, resourceservice.ServerOptions{TLS: tlsConfig, Watches: opts.watches})
	reaperCtx, stopReaper := context.WithCancel(ctx)
	defer stopReaper()
	go func() {
		reaper := &resourceservice.Reaper{Service: service, Logf: func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }}
		if err := reaper.Run(reaperCtx); err != nil {
			fmt.Fprintf(stderr, "Warning: %v\n", err)
		}
	}()
	fmt.Fprintf(stdout, "Terrane store serving %s on %s\n", opts.backend, listener.Addr())
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
