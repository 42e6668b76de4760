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

	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/remote"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
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
func runWatch(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watchUntil(ctx, args, stdout, stderr)
}

func watchUntil(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var opts watchOptions
	flags := flag.NewFlagSet("watch", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&opts.resType, "type", "ResourceInstance", "record kind (Workspace, ResourceInstance, Output) or group.version.kind")
	flags.StringVar(&opts.tenancy, "tenancy", "*/*", "PROJECT/WORKSPACE to watch; \"*\" matches all")
	flags.StringVar(&opts.prefix, "prefix", "", "only records whose name (instance address) starts with this")
	flags.StringVar(&opts.address, "address", "", "host:port of a `terrane serve` endpoint; default: the working directory's store")
	flags.StringVar(&opts.backend, "backend", "", "sqlite://PATH or etcd://HOST:PORT,...; default: the working directory's store (as init recorded it)")
	flags.StringVar(&opts.token, "token", os.Getenv(tokenEnvVar), "token for -address (default $"+tokenEnvVar+")")
	flags.StringVar(&opts.tlsCA, "tls-ca", "", "PEM CA certificate: connect to -address with TLS, trusting this CA")
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
}

func printEvent(out io.Writer, event store.WatchEvent, asJSON bool) error {
	view := watchEventView{Event: map[store.EventKind]string{
		store.EventUpsert: "upsert", store.EventDelete: "delete", store.EventEndOfSnapshot: "end_of_snapshot"}[event.Kind]}
	if res := event.Resource; res != nil {
		id := res.GetId()
		view.Type = id.GetType().GetGroup() + "." + id.GetType().GetGroupVersion() + "." + id.GetType().GetKind()
		view.Project, view.Workspace, view.Name = id.GetTenancy().GetPartition(), id.GetTenancy().GetNamespace(), id.GetName()
		view.Uid, view.Generation, view.Version = id.GetUid(), res.GetGeneration(), res.GetVersion()
		view.Data = redactedData(res)
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
	if view.Data == nil || view.Event == "delete" {
		return nil
	}
	body, err := json.MarshalIndent(view.Data, "    ", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "    %s\n", body)
	return err
}

// sensitivePlaceholder replaces every redacted value.
const sensitivePlaceholder = "(sensitive value)"

// redactedData renders a record's data for display with sensitive values
// replaced; opaque bytes (private data, msgpack) are left out entirely,
// since they may hold secrets no one can see are there.
func redactedData(res *pbresource.Resource) any {
	switch {
	case res.GetData() == nil:
		return nil
	case res.GetData().MessageIs(&recordsv1.ResourceInstance{}):
		var inst recordsv1.ResourceInstance
		if res.GetData().UnmarshalTo(&inst) != nil {
			return nil
		}
		return instanceView(&inst)
	case res.GetData().MessageIs(&recordsv1.Output{}):
		var output recordsv1.Output
		if res.GetData().UnmarshalTo(&output) != nil {
			return nil
		}
		view := map[string]any{"sensitive": output.GetSensitive(), "type": rawJSON(output.GetTypeJson())}
		if output.GetSensitive() {
			view["value"] = sensitivePlaceholder
		} else {
			view["value"] = rawJSON(output.GetValueJson())
		}
		return view
	case res.GetData().MessageIs(&recordsv1.Encrypted{}):
		// Watch holds no keys: an encrypted record shows only how it was
		// encrypted, which is no secret.
		var stored recordsv1.Encrypted
		if res.GetData().UnmarshalTo(&stored) != nil {
			return nil
		}
		providers := make([]string, 0, len(stored.GetKeyProviderMeta()))
		for name := range stored.GetKeyProviderMeta() {
			providers = append(providers, name)
		}
		sort.Strings(providers)
		return map[string]any{"encrypted": true, "method": stored.GetMethod(), "key_providers": providers}
	default:
		return map[string]any{"@type": res.GetData().GetTypeUrl()}
	}
}

func instanceView(inst *recordsv1.ResourceInstance) map[string]any {
	view := map[string]any{"mode": inst.GetMode().String(), "type": inst.GetType(), "name": inst.GetName(), "provider": inst.GetProvider()}
	if inst.GetCurrent() != nil {
		view["current"] = objectView(inst.GetCurrent())
	}
	if len(inst.GetDeposed()) > 0 {
		deposed := map[string]any{}
		for key, object := range inst.GetDeposed() {
			deposed[key] = objectView(object)
		}
		view["deposed"] = deposed
	}
	if intent := inst.GetIntent(); intent != nil {
		view["intent"] = map[string]any{"operation": intent.GetOperation().String(), "run_id": intent.GetRunId(),
			"started_at": intent.GetStartedAt().AsTime(), "deposed_key": intent.GetDeposedKey(), "holder": intent.GetHolder()}
	}
	return view
}

func objectView(object *recordsv1.ObjectState) map[string]any {
	view := map[string]any{"status": object.GetStatus().String(), "schema_version": object.GetSchemaVersion()}
	var attributes any
	if err := json.Unmarshal(object.GetAttributesJson(), &attributes); err == nil {
		for _, path := range object.GetSensitivePaths() {
			attributes = redactPath(attributes, path.GetSteps())
		}
		view["attributes"] = attributes
	}
	if len(object.GetDependencies()) > 0 {
		view["dependencies"] = object.GetDependencies()
	}
	if object.GetPulumi() != nil {
		view["pulumi_urn"] = object.GetPulumi().GetUrn()
	}
	return view
}

// redactPath returns value with the part addressed by steps replaced by the
// placeholder. A path that does not match the value redacts nothing more.
func redactPath(value any, steps []*recordsv1.AttributePath_Step) any {
	if len(steps) == 0 {
		return sensitivePlaceholder
	}
	step := steps[0]
	switch v := value.(type) {
	case map[string]any:
		key := step.GetAttributeName()
		if key == "" {
			key = step.GetElementKeyString()
		}
		if inner, ok := v[key]; ok {
			v[key] = redactPath(inner, steps[1:])
		}
	case []any:
		if _, isInt := step.GetSelector().(*recordsv1.AttributePath_Step_ElementKeyInt); isInt {
			if i := step.GetElementKeyInt(); i >= 0 && int(i) < len(v) {
				v[i] = redactPath(v[i], steps[1:])
			}
		}
	}
	return value
}

func rawJSON(data []byte) any {
	if len(data) == 0 || !json.Valid(data) {
		return nil
	}
	return json.RawMessage(data)
}
