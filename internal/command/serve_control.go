package command

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/web"
)

// controlPlaneDeps are what serve has made that the control plane shares.
type controlPlaneDeps struct {
	service *resourceservice.Service
	tokens  *resourceservice.Tokens
	tls     *tls.Config
	// insecure is serve's -insecure: the web view, too, may then listen
	// beyond loopback without TLS or a token.
	insecure bool
}

// startControlPlane starts the reconciler and the web view that opts ask
// for, and returns the function that stops both and waits for them.
func startControlPlane(ctx context.Context, opts arguments.ControlPlane, deps controlPlaneDeps, stdout, stderr io.Writer) (func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	stop := func() { cancel(); wg.Wait() }
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	var reconciler *reconcile.Reconciler
	if opts.Reconcile != "" {
		regs, ds := reconcile.LoadFile(opts.Reconcile)
		if ds.HasErrors() {
			cancel()
			return nil, fmt.Errorf("-reconcile %s: %w", opts.Reconcile, ds.Err())
		}
		var err error
		if reconciler, err = reconcile.New(deps.service, reconcile.Options{Limits: regs.Limits, Logf: logf}); err != nil {
			cancel()
			return nil, err
		}
		for _, ws := range regs.Workspaces {
			if err := reconciler.Register(ws); err != nil {
				cancel()
				return nil, err
			}
		}
		wg.Add(1)
		go func() { defer wg.Done(); reconciler.Run(ctx) }()
		fmt.Fprintf(stdout, "Reconciling %d workspaces from %s\n", len(regs.Workspaces), opts.Reconcile)
	}
	if !opts.UI {
		return stop, nil
	}
	listener, err := net.Listen("tcp", opts.UIListen)
	if err != nil {
		stop()
		return nil, fmt.Errorf("-ui-listen %s: %w", opts.UIListen, err)
	}
	if err := checkExposure(listener.Addr(), deps.tls, deps.tokens != nil && !deps.tokens.Open(), deps.insecure, stderr); err != nil {
		listener.Close()
		stop()
		return nil, fmt.Errorf("-ui-listen: %w", err)
	}
	view := web.New(web.Options{Service: deps.service, Tokens: deps.tokens, Reconciler: reconciler})
	// http.Server adds its protocols to the TLS configuration it is given;
	// the gRPC server reads the same one, so the web view gets a copy.
	var tlsConfig *tls.Config
	if deps.tls != nil {
		tlsConfig = deps.tls.Clone()
	}
	server := &http.Server{Handler: view, TLSConfig: tlsConfig, ReadHeaderTimeout: 10 * time.Second,
		// Event streams end with serve, not after Shutdown's grace period.
		BaseContext: func(net.Listener) context.Context { return ctx }}
	wg.Add(2)
	go func() { defer wg.Done(); _ = view.Run(ctx) }()
	go func() {
		defer wg.Done()
		var err error
		if deps.tls != nil {
			err = server.ServeTLS(listener, "", "")
		} else {
			err = server.Serve(listener)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			logf("Warning: the web view stopped: %v", err)
		}
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-ctx.Done()
		shutdown, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		_ = server.Shutdown(shutdown)
		_ = server.Close() // event streams do not end on their own
	}()
	scheme := "http"
	if deps.tls != nil {
		scheme = "https"
	}
	fmt.Fprintf(stdout, "Web view on %s://%s/\n", scheme, listener.Addr())
	return stop, nil
}
