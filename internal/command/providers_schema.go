package command

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/run"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/jsonprovider"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// runProvidersSchema prints the schemas of every provider the configuration
// in the working directory needs, in the shape of
// `terraform providers schema -json`.
func runProvidersSchema(streams views.Streams, args []string) int {
	fs := newFlagSet("providers schema", streams)
	asJSON := fs.Bool("json", false, "Print the schemas as JSON (required)")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	err := fs.Parse(args)
	var argDiags diags.Diagnostics
	if err != nil {
		argDiags = argDiags.Append(diags.Errorf("Failed to parse command-line flags", "%s", err))
	}
	if !*asJSON {
		argDiags = argDiags.Append(diags.Errorf("Output only in json is allowed",
			"The `terrane providers schema` command requires the `-json` flag."))
	}
	view := views.NewProvidersSchema(streams, *noColor)
	if len(argDiags) > 0 {
		view.ArgumentErrors(argDiags)
		return runResultHelp
	}
	ctx := context.Background()
	parser := config.NewParser()
	parser.Static = run.StaticInputs(".", nil, os.Environ())
	cfg, hclDiags := modules.LoadConfig(parser, ".")
	var ds diags.Diagnostics
	ds = ds.Append(hclDiags)
	if ds.HasErrors() {
		view.Diagnostics(ds, ui.Sources(parser.Files()))
		return 1
	}
	schemas, more := loadProviderSchemas(ctx, cfg)
	ds = ds.Append(more)
	if ds.HasErrors() {
		view.Diagnostics(ds, ui.Sources(parser.Files()))
		return 1
	}
	if !view.Schemas(schemas) {
		return 1
	}
	return 0
}

// loadProviderSchemas finds, starts and asks every provider the
// configuration needs for its schemas, all at once.
func loadProviderSchemas(ctx context.Context, cfg *config.Config) (map[string]jsonprovider.Provider, diags.Diagnostics) {
	requirements, ds := workdir.ProviderRequirements(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	cli, more := cliconfig.Load(cliconfig.Environment{WorkingDir: "."})
	ds = ds.Append(more)
	if ds.HasErrors() {
		return nil, ds
	}
	subpackages, more := workdir.Subpackages(cfg)
	ds = ds.Append(more)
	locks, _ := depsfile.LoadFile(workdir.LockFilePath(".")) // unreadable: sub-packages are made from their parameters
	packages, more := workdir.ResolveProviders(ctx, cli, requirements, subpackages, locks)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return nil, ds
	}
	store, err := plugin.DefaultSchemaStore()
	if err != nil {
		ds = ds.Append(diags.Warnf("Provider schema cache unavailable", "Schemas will be fetched from each provider: %s.", err))
	}

	var mu sync.Mutex
	var wg sync.WaitGroup
	result := make(map[string]jsonprovider.Provider, len(packages))
	for addr, pkg := range packages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			schema, schemaDiags := fetchSchema(ctx, addr, pkg, store)
			mu.Lock()
			defer mu.Unlock()
			ds = ds.Append(schemaDiags)
			if !schemaDiags.HasErrors() {
				result[addr.String()] = schema
			}
		}()
	}
	wg.Wait()
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Severity < ds[j].Severity })
	return result, ds
}

func fetchSchema(ctx context.Context, addr addrs.Provider, pkg workdir.ResolvedProvider, store *plugin.SchemaStore) (jsonprovider.Provider, diags.Diagnostics) {
	var ds diags.Diagnostics
	p, err := pkg.Launch(ctx, store)
	if err != nil {
		return jsonprovider.Provider{}, ds.Append(err)
	}
	defer p.Close()
	schema := p.GetProviderSchema(ctx)
	ds = ds.Append(schema.Diagnostics)
	identities := p.GetResourceIdentitySchemas(ctx)
	ds = ds.Append(identities.Diagnostics)
	return jsonprovider.Provider{Schema: schema, Identities: identities}, ds.WithAddress(fmt.Sprintf("provider[%q]", addr.String()))
}
