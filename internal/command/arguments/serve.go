package arguments

import (
	"flag"
	"os"
	"strings"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/resourceservice"
)

// TokenEnvVar supplies the serve token, or the client token of watch and
// status, without putting it on a command line other users can read.
const TokenEnvVar = "TERRANE_TOKEN"

// serve, watch and status are Terrane's own commands, with no help text of
// their own: a command line the flag package refuses is answered with what
// it writes, the error and the usage of every flag. Their flags' usage
// texts are therefore part of what they print.

// Serve is `terrane serve`'s command line.
type Serve struct {
	// Listen is the address the store is served on (host:port).
	Listen string
	// Backend is the store served: sqlite://PATH or etcd://HOST:PORT,...
	Backend string
	// Tokens are the bearer tokens clients must send, from -token or else
	// TERRANE_TOKEN; TOKEN@PROJECT/WORKSPACE limits one to a tenancy.
	Tokens          []string
	TLSCert, TLSKey string
	// Insecure allows serving beyond loopback without TLS or a token.
	Insecure bool
	Watches  resourceservice.WatchLimits
	ControlPlane
	// FlagOutput is what the flag package wrote when it refused the
	// command line.
	FlagOutput string
}

// ControlPlane are serve's options for the reconciler and the web view.
type ControlPlane struct {
	// Reconcile is a file of workspace blocks to refresh and report
	// drift on.
	Reconcile string
	UI        bool
	UIListen  string
}

// ParseServe parses `terrane serve`'s arguments.
func ParseServe(args []string) (*Serve, diags.Diagnostics) {
	serve := &Serve{}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&serve.Listen, "listen", "127.0.0.1:8502", "address to listen on (host:port)")
	fs.StringVar(&serve.Backend, "backend", "sqlite://.terrane/state.db", "store to serve: sqlite://PATH or etcd://HOST:PORT,...")
	fs.Var((*stringList)(&serve.Tokens), "token", "bearer token clients must send (repeatable; TOKEN@PROJECT/WORKSPACE limits it to one tenancy); default $"+TokenEnvVar)
	fs.StringVar(&serve.TLSCert, "tls-cert", "", "PEM certificate file for TLS")
	fs.StringVar(&serve.TLSKey, "tls-key", "", "PEM private key file for TLS")
	fs.BoolVar(&serve.Insecure, "insecure", false, "serve on an address other machines can reach without TLS or without a -token (trusted networks only)")
	fs.IntVar(&serve.Watches.PerToken, "max-watches-per-token", resourceservice.DefaultWatchesPerToken, "most WatchList streams one token may hold open")
	fs.IntVar(&serve.Watches.PerConnection, "max-watches-per-connection", resourceservice.DefaultWatchesPerConnection, "most WatchList streams one client connection may hold open")
	fs.StringVar(&serve.Reconcile, "reconcile", "", "file of workspace blocks to refresh and report drift on (see terrane status)")
	fs.BoolVar(&serve.UI, "ui", false, "serve the web view on -ui-listen")
	fs.StringVar(&serve.UIListen, "ui-listen", "127.0.0.1:8503", "address the web view listens on (host:port), with serve's TLS and tokens")
	if ds := parseFlagsWithUsage(fs, args, &serve.FlagOutput); ds.HasErrors() {
		return serve, ds
	}
	if len(serve.Tokens) == 0 && os.Getenv(TokenEnvVar) != "" {
		serve.Tokens = []string{os.Getenv(TokenEnvVar)}
	}
	return serve, nil
}

// WatchStore are the options that choose the store a reading command
// (watch, status) opens: by default the working directory's.
type WatchStore struct {
	// Address is the host:port of a `terrane serve` endpoint.
	Address string
	// Backend is sqlite://PATH or etcd://HOST:PORT,...
	Backend string
	// Token is sent to Address; TERRANE_TOKEN by default.
	Token string
	// TLSCA is a PEM CA certificate: Address is reached with TLS,
	// trusting it.
	TLSCA string
}

func addWatchStoreFlags(fs *flag.FlagSet, store *WatchStore) {
	fs.StringVar(&store.Address, "address", "", "host:port of a `terrane serve` endpoint; default: the working directory's store")
	fs.StringVar(&store.Backend, "backend", "", "sqlite://PATH or etcd://HOST:PORT,...; default: the working directory's store (as init recorded it)")
	fs.StringVar(&store.Token, "token", os.Getenv(TokenEnvVar), "token for -address (default $"+TokenEnvVar+")")
	fs.StringVar(&store.TLSCA, "tls-ca", "", "PEM CA certificate: connect to -address with TLS, trusting this CA")
}

// Watch is `terrane watch`'s command line.
type Watch struct {
	WatchStore
	// Type is the record kind (Workspace, ResourceInstance, Output) or
	// group.version.kind, read by the command.
	Type string
	// Tenancy is PROJECT/WORKSPACE, "*" matching all.
	Tenancy string
	// Prefix keeps the records whose name starts with it.
	Prefix string
	// JSON prints one JSON object per event.
	JSON       bool
	FlagOutput string
}

// ParseWatch parses `terrane watch`'s arguments; positional arguments are
// ignored.
func ParseWatch(args []string) (*Watch, diags.Diagnostics) {
	watch := &Watch{}
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.StringVar(&watch.Type, "type", "ResourceInstance", "record kind (Workspace, ResourceInstance, Output) or group.version.kind")
	fs.StringVar(&watch.Tenancy, "tenancy", "*/*", "PROJECT/WORKSPACE to watch; \"*\" matches all")
	fs.StringVar(&watch.Prefix, "prefix", "", "only records whose name (instance address) starts with this")
	addWatchStoreFlags(fs, &watch.WatchStore)
	fs.BoolVar(&watch.JSON, "json", false, "print one JSON object per event")
	return watch, parseFlagsWithUsage(fs, args, &watch.FlagOutput)
}

// Status is `terrane status [ADDR]`'s command line.
type Status struct {
	WatchStore
	// Workspace is the workspace to show; the selected one when empty.
	Workspace string
	// Address limits the list to the instances at or under it.
	Address    string
	JSON       bool
	FlagOutput string
}

// ParseStatus parses `terrane status`'s arguments.
func ParseStatus(args []string) (*Status, diags.Diagnostics) {
	status := &Status{}
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.StringVar(&status.Workspace, "workspace", "", "workspace to show; default: the selected one")
	addWatchStoreFlags(fs, &status.WatchStore)
	fs.BoolVar(&status.JSON, "json", false, "print the statuses as JSON")
	// Taken as every command takes it; status writes no colour to take out.
	fs.Bool("no-color", false, "disable colour in the output")
	if ds := parseFlagsWithUsage(fs, args, &status.FlagOutput); ds.HasErrors() {
		return status, ds
	}
	if fs.NArg() > 1 {
		return status, diags.Diagnostics{diags.Errorf("Too many command line arguments",
			"status takes at most one resource address, got %q", strings.Join(fs.Args(), " "))}
	}
	status.Address = fs.Arg(0)
	return status, nil
}

// parseFlagsWithUsage runs fs.Parse, keeping in output what the flag
// package writes when it refuses the command line (-help too).
func parseFlagsWithUsage(fs *flag.FlagSet, args []string, output *string) diags.Diagnostics {
	var out strings.Builder
	fs.SetOutput(&out)
	err := fs.Parse(args)
	*output = out.String()
	if err != nil {
		return diags.Diagnostics{flagsError(err)}
	}
	return nil
}
