package command

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/resourceservice/records/recordview"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/remote"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/pbresource"
)

type watchOptions struct {
	resType, tenancy, prefix string
	address, backend, token  string
	tlsCA                    string
	jsonOutput               bool
}

// runWatch implements `terrane watch`: it prints the records of a type as
// they are now, then every change as it happens, with sensitive values
// redacted, until interrupted.
func runWatch(streams views.Streams, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watchUntil(ctx, args, streams.Stdout, streams.Stderr)
}

func watchUntil(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var opts watchOptions
	flags := flag.NewFlagSet("watch", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&opts.resType, "type", "ResourceInstance", "record kind (Workspace, ResourceInstance, Output) or group.version.kind")
	flags.StringVar(&opts.tenancy, "tenancy", "*/*", "PROJECT/WORKSPACE to watch; \"*\" matches all")
	flags.StringVar(&opts.prefix, "prefix", "", "only records whose name (instance address) starts with this")
	addStoreFlags(flags, &opts)
	flags.BoolVar(&opts.jsonOutput, "json", false, "print one JSON object per event")
	if err := flags.Parse(args); err != nil {
		return 1
	}
	if err := watchRecords(ctx, opts, stdout); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

// addStoreFlags adds the flags that choose the store a reading command
// (watch, status) opens.
func addStoreFlags(flags *flag.FlagSet, opts *watchOptions) {
	flags.StringVar(&opts.address, "address", "", "host:port of a `terrane serve` endpoint; default: the working directory's store")
	flags.StringVar(&opts.backend, "backend", "", "sqlite://PATH or etcd://HOST:PORT,...; default: the working directory's store (as init recorded it)")
	flags.StringVar(&opts.token, "token", os.Getenv(tokenEnvVar), "token for -address (default $"+tokenEnvVar+")")
	flags.StringVar(&opts.tlsCA, "tls-ca", "", "PEM CA certificate: connect to -address with TLS, trusting this CA")
}

func watchRecords(ctx context.Context, opts watchOptions, stdout io.Writer) error {
	resType, err := parseWatchType(opts.resType)
	if err != nil {
		return err
	}
	project, workspace, ok := strings.Cut(opts.tenancy, "/")
	if !ok || project == "" || workspace == "" {
		return fmt.Errorf("-tenancy %q: expected PROJECT/WORKSPACE, e.g. myproject/default or */*", opts.tenancy)
	}
	backend, err := openWatchBackend(opts)
	if err != nil {
		return err
	}
	defer backend.Close()
	watch, err := backend.WatchList(ctx, resType, records.Tenancy(project, workspace), opts.prefix)
	if err != nil {
		return fmt.Errorf("watching %s records: %w", resType.GetKind(), err)
	}
	defer watch.Close()
	for {
		event, err := watch.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("watch ended: %w", err)
		}
		if err := printEvent(stdout, event, opts.jsonOutput); err != nil {
			return err
		}
	}
}

func parseWatchType(spec string) (*pbresource.Type, error) {
	for _, known := range []*pbresource.Type{records.WorkspaceType, records.ResourceInstanceType, records.OutputType} {
		if strings.EqualFold(spec, known.GetKind()) {
			return known, nil
		}
	}
	parts := strings.Split(spec, ".")
	if len(parts) != 3 || parts[0] == "" || parts[2] == "" {
		return nil, fmt.Errorf("-type %q: expected Workspace, ResourceInstance, Output or group.version.kind", spec)
	}
	return &pbresource.Type{Group: parts[0], GroupVersion: parts[1], Kind: parts[2]}, nil
}

func openWatchBackend(opts watchOptions) (store.Backend, error) {
	if opts.address == "" && opts.backend == "" {
		// The store every other command in this directory uses.
		settings, ds := workdir.StoreSettings(".")
		if ds.HasErrors() {
			return nil, ds.Err()
		}
		backend, ds := workdir.OpenBackend(".", settings)
		if ds.HasErrors() {
			return nil, ds.Err()
		}
		return backend, nil
	}
	if opts.address == "" {
		return openBackend(opts.backend)
	}
	cfg := remote.Config{Address: opts.address, Token: opts.token}
	if opts.tlsCA != "" {
		pem, err := os.ReadFile(opts.tlsCA)
		if err != nil {
			return nil, fmt.Errorf("-tls-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("-tls-ca %s holds no PEM certificate", opts.tlsCA)
		}
		cfg.TLS = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return remote.Dial(cfg)
}

// watchEventView is the -json form of one event.
type watchEventView struct {
	Event      string `json:"event"`
	Type       string `json:"type,omitempty"`
	Project    string `json:"project,omitempty"`
	Workspace  string `json:"workspace,omitempty"`
	Name       string `json:"name,omitempty"`
	Uid        string `json:"uid,omitempty"`
	Generation string `json:"generation,omitempty"`
	Version    string `json:"version,omitempty"`
	Data       any    `json:"data,omitempty"`
	// Status holds every status key of the record, as a controller (the
	// serve reconciler) wrote it.
	Status map[string]statusView `json:"status,omitempty"`
}

func printEvent(out io.Writer, event store.WatchEvent, asJSON bool) error {
	view := watchEventView{Event: map[store.EventKind]string{
		store.EventUpsert: "upsert", store.EventDelete: "delete", store.EventEndOfSnapshot: "end_of_snapshot"}[event.Kind]}
	if res := event.Resource; res != nil {
		id := res.GetId()
		view.Type = id.GetType().GetGroup() + "." + id.GetType().GetGroupVersion() + "." + id.GetType().GetKind()
		view.Project, view.Workspace, view.Name = id.GetTenancy().GetPartition(), id.GetTenancy().GetNamespace(), id.GetName()
		view.Uid, view.Generation, view.Version = id.GetUid(), res.GetGeneration(), res.GetVersion()
		view.Data = recordview.Data(res)
		for key := range res.GetStatus() {
			if view.Status == nil {
				view.Status = map[string]statusView{}
			}
			view.Status[key] = newKeyStatusView(res, key)
		}
	}
	if asJSON {
		line, err := json.Marshal(view)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", line)
		return err
	}
	return printHuman(out, view)
}

func printHuman(out io.Writer, view watchEventView) error {
	if view.Event == "end_of_snapshot" {
		_, err := fmt.Fprintln(out, "--- end of snapshot; watching for changes ---")
		return err
	}
	sign := map[string]string{"upsert": "~", "delete": "-"}[view.Event]
	if _, err := fmt.Fprintf(out, "%s %s %s/%s %s (generation %s, version %s)\n", sign, view.Type, view.Project, view.Workspace, view.Name, view.Generation, view.Version); err != nil {
		return err
	}
	if view.Event == "delete" {
		return nil
	}
	if err := printWatchedStatus(out, view); err != nil {
		return err
	}
	if view.Data == nil {
		return nil
	}
	body, err := json.MarshalIndent(view.Data, "    ", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "    %s\n", body)
	return err
}

// printWatchedStatus prints the condition that holds under each status key.
func printWatchedStatus(out io.Writer, view watchEventView) error {
	keys := make([]string, 0, len(view.Status))
	for key := range view.Status {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		st := view.Status[key]
		for _, c := range st.ConditionsJSON {
			if c.State != "TRUE" {
				continue
			}
			if _, err := fmt.Fprintf(out, "    status %s: %s (%s) at generation %s: %s\n", key, c.Type, c.Reason, st.ObservedGeneration, c.Message); err != nil {
				return err
			}
		}
	}
	return nil
}
