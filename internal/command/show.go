package command

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/jsonplan"
	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/version"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// runShow is `terrane show [-json] [PLANFILE]`: the workspace's current
// state, or a saved plan, for people or (with -json) in Terraform's JSON
// state and plan representations.
func runShow(streams Streams, args []string) int {
	fs := newFlagSet("show", streams)
	asJSON := fs.Bool("json", false, "Print Terraform's machine-readable JSON representation")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	var vars []arguments.VarOption
	arguments.AddVarFlags(fs, &vars)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	color := ui.ColorEnabled(*noColor) && !*asJSON
	var ds diags.Diagnostics
	switch fs.NArg() {
	case 0:
		ds = showState(streams, vars, *asJSON, color)
	case 1:
		ds = showPlanFile(streams, fs.Arg(0), vars, *asJSON, color)
	default:
		ds = diags.Diagnostics{diags.Errorf("Too many arguments", "terrane show takes at most one argument, the path of a saved plan; got %d.", fs.NArg())}
	}
	// As OpenTofu's show, warnings are shown only beside an error (they
	// would spoil a JSON document), and in colour unless -no-color, even
	// with -json.
	if ds.HasErrors() {
		ui.WriteDiagnostics(streams.Stderr, ds, rootModuleSources("."), ui.ColorEnabled(*noColor))
		return 1
	}
	return 0
}

func showState(streams Streams, vars []arguments.VarOption, asJSON, color bool) diags.Diagnostics {
	ctx := context.Background()
	snapshot, ds := loadWorkspaceState(ctx, ".", vars)
	if ds.HasErrors() {
		return ds
	}
	state := snapshot.State
	schemas, ds := loadSchemas(ctx, ".", providersInState(state))
	if ds.HasErrors() {
		return ds
	}
	if asJSON {
		// OpenTofu reports the version that last wrote the state, itself;
		// Terrane reports the OpenTofu version it implements.
		out, err := jsonstate.Marshal(state, schemas, version.OpenTofuVersion)
		if err != nil {
			return ds.Append(diags.Errorf("Cannot show the state", "%s.", err))
		}
		fmt.Fprintln(streams.Stdout, string(out))
		return ds
	}
	return ds.Append(ui.RenderState(streams.Stdout, state, schemas, ui.StateOptions{Color: color}))
}

func showPlanFile(streams Streams, path string, vars []arguments.VarOption, asJSON, color bool) diags.Diagnostics {
	ctx := context.Background()
	_, reader, ds := savedPlanEncryption(path, ".", vars)
	if ds.HasErrors() {
		return planFileFailure("Cannot read the plan file", path, ds)
	}
	defer reader.Close()
	plan, err := reader.ReadPlan()
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot read the plan file", "%s: %s.", path, err)}
	}
	prior, fromTerraform, err := planPriorState(reader, plan)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Cannot read the plan's prior state", "%s: %s.", path, err)}
	}
	cfg, ds := planConfig(reader)
	needed := providersInState(prior)
	for _, change := range plan.Changes.Resources {
		needed[change.ProviderAddr.Config.Provider] = true
	}
	schemas, schemaDiags := loadSchemas(ctx, ".", needed)
	ds = ds.Append(schemaDiags)
	if ds.HasErrors() {
		return ds
	}
	if !asJSON {
		return ds.Append(ui.RenderPlan(streams.Stdout, plan, schemas, ui.PlanOptions{Color: color}))
	}
	// A plan Terraform or OpenTofu wrote carries its refreshed state; one
	// Terrane wrote carries the records it read, refreshed here.
	if !fromTerraform {
		if prior, err = refreshedPriorState(prior, plan, schemas); err != nil {
			return ds.Append(diags.Errorf("Cannot read the plan's prior state", "%s: %s.", path, err))
		}
	}
	out, err := jsonplan.Marshal(jsonplan.Input{Plan: plan, Config: cfg, PriorState: prior, Schemas: schemas})
	if err != nil {
		return ds.Append(diags.Errorf("Cannot show the plan", "%s: %s.", path, err))
	}
	fmt.Fprintln(streams.Stdout, string(out))
	return ds
}

// planPriorState rebuilds the state a plan was made from out of the records
// it read; a plan written by Terraform or OpenTofu carries a state file
// instead, and fromTerraform says so.
func planPriorState(reader *planfile.Reader, plan *plans.Plan) (state *states.State, fromTerraform bool, err error) {
	state = states.NewState()
	for _, prior := range plan.PriorRecords {
		if prior.Data == nil {
			continue
		}
		switch prior.Kind {
		case records.ResourceInstanceType.GetKind():
			rec := &recordsv1.ResourceInstance{}
			if err := prior.Data.UnmarshalTo(rec); err != nil {
				return nil, false, fmt.Errorf("record %s: %w", prior.Name, err)
			}
			addr, provider, inst, err := recordstore.InstanceFromRecord(rec)
			if err != nil {
				return nil, false, fmt.Errorf("record %s: %w", prior.Name, err)
			}
			if prior.DependenciesPlanned && inst.Current != nil {
				if inst.Current.Dependencies, err = configResources(prior.PlannedDependencies); err != nil {
					return nil, false, fmt.Errorf("record %s: %w", prior.Name, err)
				}
			}
			state.SetResourceInstance(addr, inst, provider)
		case records.OutputType.GetKind():
			rec := &recordsv1.Output{}
			if err := prior.Data.UnmarshalTo(rec); err != nil {
				return nil, false, fmt.Errorf("record %s: %w", prior.Name, err)
			}
			output, err := recordstore.OutputFromRecord(rec)
			if err != nil {
				return nil, false, fmt.Errorf("record %s: %w", prior.Name, err)
			}
			state.Outputs[prior.Name] = output
		}
	}
	if len(plan.PriorRecords) > 0 {
		return state, false, nil
	}
	raw, _, found, err := reader.ReadTerraformState()
	if err != nil || !found {
		return state, false, err
	}
	file, err := readStateFileBytes(raw)
	if err != nil {
		return nil, false, err
	}
	return file, true, nil
}

// configResources parses the addresses of the resources an object
// depends on.
func configResources(addresses []string) ([]addrs.ConfigResource, error) {
	out := make([]addrs.ConfigResource, 0, len(addresses))
	for _, address := range addresses {
		addr, hds := addrs.ParseAbsResourceStr(address)
		if hds.HasErrors() {
			return nil, fmt.Errorf("dependency %q: %s", address, hds.Error())
		}
		out = append(out, addr.Config())
	}
	return out, nil
}

// planConfig loads the configuration snapshot a plan file carries, by
// writing it to a temporary directory laid out as it was.
func planConfig(reader *planfile.Reader) (*config.Config, diags.Diagnostics) {
	snapshot, err := reader.ReadConfigSnapshot()
	if err != nil || snapshot == nil || snapshot.Modules[""] == nil {
		// The configuration section is optional; the rest still shows.
		return nil, nil
	}
	tmp, err := os.MkdirTemp("", "terrane-show-")
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Cannot unpack the plan's configuration", "%s.", err)}
	}
	defer os.RemoveAll(tmp)
	for _, mod := range snapshot.Modules {
		dir := filepath.Join(tmp, filepath.FromSlash(mod.Dir))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, diags.Diagnostics{diags.Errorf("Cannot unpack the plan's configuration", "%s.", err)}
		}
		for name, content := range mod.Files {
			if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
				return nil, diags.Diagnostics{diags.Errorf("Cannot unpack the plan's configuration", "%s.", err)}
			}
		}
	}
	cfg, hclDiags := config.LoadConfigDir(filepath.Join(tmp, filepath.FromSlash(snapshot.Modules[""].Dir)))
	if hclDiags.HasErrors() {
		return nil, nil
	}
	return cfg, nil
}

func providersInState(state *states.State) map[addrs.Provider]bool {
	needed := map[addrs.Provider]bool{}
	if state == nil {
		return needed
	}
	for _, res := range state.SortedResources() {
		needed[res.ProviderConfig.Provider] = true
	}
	return needed
}

// loadSchemas starts each needed provider that is installed for the
// working directory in dir and asks it for its schemas.
func loadSchemas(ctx context.Context, dir string, needed map[addrs.Provider]bool) (*providers.Schemas, diags.Diagnostics) {
	schemas := &providers.Schemas{
		Providers:  map[addrs.Provider]providers.GetProviderSchemaResponse{},
		Identities: map[addrs.Provider]providers.GetResourceIdentitySchemasResponse{},
	}
	if len(needed) == 0 {
		return schemas, nil
	}
	locks, ds := depsfile.LoadFile(workdir.LockFilePath(dir))
	cli, cliDiags := cliconfig.Load(cliconfig.Environment{WorkingDir: dir})
	ds = ds.Append(cliDiags)
	if ds.HasErrors() {
		return nil, ds
	}
	cache, _ := plugin.DefaultSchemaStore()
	factories, factoryDiags := workdir.ProviderFactories(ctx, dir, locks, cli, cache)
	ds = ds.Append(factoryDiags)
	if factories == nil {
		factories = map[addrs.Provider]providers.Factory{}
	}
	maps.Copy(factories, engine.BuiltinProviders())
	for _, provider := range workdir.SortedProviders(needed) {
		factory, ok := factories[provider]
		if !ok {
			ds = ds.Append(diags.Errorf("Failed to load plugin schemas",
				"Error while loading schemas for plugin components: failed to instantiate provider %q to obtain schema: unavailable provider %q.", provider, provider))
			return schemas, ds
		}
		instance, err := factory(ctx)
		if err != nil {
			ds = ds.Append(diags.Errorf("Failed to start provider", "Starting %s to read its schema: %s.", provider, err))
			continue
		}
		resp := instance.GetProviderSchema(ctx)
		ds = ds.Append(resp.Diagnostics)
		schemas.Providers[provider] = resp
		schemas.Identities[provider] = instance.GetResourceIdentitySchemas(ctx)
		instance.Close()
	}
	return schemas, ds
}
