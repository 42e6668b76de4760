package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/jsonplan"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/version"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// runShow is `terrane show [options] [PATH]`: the workspace's current
// state, a saved plan, or a state file, for people or (with -json) in
// Terraform's JSON state and plan representations. Its options and
// messages are OpenTofu's: -state, -plan=FILE and -config choose what to
// show; without them a path is probed as a plan file, then as a state
// file.
func runShow(streams views.Streams, args []string) int {
	opts, ds := parseShowArgs(args)
	view := views.NewShow(streams, arguments.View{NoColor: opts.noColor, JSON: opts.json}, opts.showSensitive)
	if opts.help {
		printCommandHelp(streams.Stdout, "show")
		return 0
	}
	if ds.HasErrors() {
		view.ArgumentErrors(ds)
		return 1
	}
	// As OpenTofu's show, whatever it shows, it reads the root module for
	// its encryption first, and stops on the errors in it.
	if _, loadDiags := run.LoadRootModuleForEncryption("."); loadDiags.HasErrors() {
		ds = ds.Append(loadDiags)
	}
	if !ds.HasErrors() && opts.target != showTargetConfig {
		// Then, as OpenTofu's backend checks before anything else, the
		// locked providers must be installed.
		ds = workdir.CheckInstalledProviders(".")
	}
	switch {
	case ds.HasErrors():
	case opts.target == showTargetState:
		ds = showState(view, opts.vars, opts.json)
	case opts.target == showTargetPlan:
		ds = showPlanFile(view, opts.path, opts.vars, opts.json)
	case opts.target == showTargetConfig:
		ds = showConfiguration(view)
	default:
		ds = showPath(view, opts.path, opts.vars, opts.json)
	}
	// Warnings are shown only beside an error, where they spoil no JSON
	// document.
	if ds.HasErrors() {
		view.Diagnostics(ds, rootModuleSources("."))
		return 1
	}
	return 0
}

type showTarget int

const (
	showTargetUnknown showTarget = iota // a path: a plan file or a state file
	showTargetState
	showTargetPlan
	showTargetConfig
)

type showArgs struct {
	target              showTarget
	path                string
	json, noColor, help bool
	showSensitive       bool
	vars                []inputvars.VarOption
}

func parseShowArgs(args []string) (showArgs, diags.Diagnostics) {
	var opts showArgs
	var ds diags.Diagnostics
	var stateTarget, configTarget bool
	var planTarget, moduleTarget string
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&opts.json, "json", false, "")
	fs.BoolVar(&opts.noColor, "no-color", false, "")
	fs.BoolVar(&opts.showSensitive, "show-sensitive", false, "")
	fs.BoolVar(&stateTarget, "state", false, "")
	fs.StringVar(&planTarget, "plan", "", "")
	fs.BoolVar(&configTarget, "config", false, "")
	fs.StringVar(&moduleTarget, "module", "", "")
	arguments.AddVarFlags(fs, &opts.vars)
	if err := fs.Parse(args); err == flag.ErrHelp {
		opts.help = true
		return opts, nil
	} else if err != nil {
		ds = ds.Append(diags.Errorf("Failed to parse command-line options", "%s", err))
	}
	if configTarget && !opts.json {
		return opts, ds.Append(diags.Errorf("JSON output required for configuration", "The -config option requires -json to be specified."))
	}
	if moduleTarget != "" && !opts.json {
		return opts, ds.Append(diags.Errorf("JSON output required for module", "The -module=DIR option requires -json to be specified."))
	}
	if planTarget == "" && moduleTarget == "" && !stateTarget && !configTarget {
		switch fs.NArg() {
		case 0:
			opts.target = showTargetState
		case 1:
			opts.target, opts.path = showTargetUnknown, fs.Arg(0)
		default:
			ds = ds.Append(diags.Errorf("Too many command line arguments", "Expected at most one positional argument for the legacy positional argument mode."))
		}
		return opts, ds
	}
	if fs.NArg() != 0 {
		return opts, ds.Append(diags.Errorf("Unexpected command line arguments", "This command does not expect any positional arguments when using a target-selection option."))
	}
	targets := 0
	if stateTarget {
		targets++
		opts.target = showTargetState
	}
	if planTarget != "" {
		targets++
		opts.target, opts.path = showTargetPlan, planTarget
	}
	if configTarget {
		targets++
		opts.target = showTargetConfig
	}
	if moduleTarget != "" {
		// Terrane has no per-module metadata view: refuse it by name.
		return opts, ds.Append(diags.Errorf("Unsupported option -module",
			"Terrane cannot show the metadata of a single module (-module=%s). Use \"terrane show -json -config\" for the whole configuration.", moduleTarget))
	}
	if targets != 1 {
		ds = ds.Append(diags.Errorf("Conflicting object types to show",
			"The -state, -plan=FILENAME, -config, and -module=DIR options are mutually-exclusive, to specify which kind of object to show."))
	}
	return opts, ds
}

func showState(view *views.Show, vars []inputvars.VarOption, asJSON bool) diags.Diagnostics {
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
	if !asJSON && (snapshot.Workspace == nil || snapshot.Workspace.Serial <= 0) && len(state.AllResourceInstances()) == 0 && len(state.Outputs) == 0 {
		// No apply ever ran here: OpenTofu has no state file to show.
		view.NoState()
		return ds
	}
	// OpenTofu reports the version that last wrote the state, itself;
	// Terrane reports the OpenTofu version it implements.
	return ds.Append(view.State(state, schemas, version.OpenTofuVersion))
}

// showPath shows the file at path: a saved plan, or else a state file (as
// `terrane state pull` writes one). When it is neither, the error says why
// each reading failed, as OpenTofu's does.
func showPath(view *views.Show, path string, vars []inputvars.VarOption, asJSON bool) diags.Diagnostics {
	if isPlanFile(path) {
		return showPlanFile(view, path, vars, asJSON)
	}
	stateFile, stateErr := readStateFileAt(path)
	if stateErr != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read the given file as a state or plan file",
			"State read error: %s\n\nPlan read error: %s", stateErr, planReadError(path))}
	}
	ctx := context.Background()
	schemas, ds := loadSchemas(ctx, ".", providersInState(stateFile.State))
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(view.State(stateFile.State, schemas, stateFile.TerraformVersion))
}

// isPlanFile reports whether path holds a plan file, plain or encrypted:
// a zip archive or an encrypted envelope.
func isPlanFile(path string) bool {
	src, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	return bytes.HasPrefix(src, []byte("PK\x03\x04")) || encryption.IsEncryptedFile(src)
}

// readStateFileAt reads a state file, with the errors OpenTofu gives for a
// file that is missing or is not JSON.
func readStateFileAt(path string) (*statefile.File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("Error loading statefile: %w", err)
	}
	var probe any
	if err := json.Unmarshal(src, &probe); err != nil {
		var syntaxErr *json.SyntaxError
		parse := err.Error()
		if errors.As(err, &syntaxErr) {
			parse = fmt.Sprintf("syntax error at byte offset %d", syntaxErr.Offset)
		}
		return nil, fmt.Errorf("Error reading %s as a statefile: 2 problems:\n\n"+
			"- Unsupported state file format: The state file could not be parsed as JSON: %s.\n"+
			"- Unsupported state file format: The state file can not be checked for presence of encryption: %s",
			path, parse, err)
	}
	file, err := statefile.Read(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("Error reading %s as a statefile: %w", path, err)
	}
	return file, nil
}

// planReadError is why path is not a plan file, in OpenTofu's words: it
// is neither a local plan (a zip archive) nor a cloud plan bookmark (JSON).
func planReadError(path string) string {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("couldn't load the provided path as either a local plan file (%s) or a saved cloud plan (%s)", err, err)
	}
	var bookmark any
	cloudErr := json.Unmarshal(src, &bookmark)
	if cloudErr == nil {
		cloudErr = fmt.Errorf("not a saved cloud plan")
	}
	return fmt.Sprintf("couldn't load the provided path as either a local plan file (zip: not a valid zip file) or a saved cloud plan (%s)", cloudErr)
}

// showConfiguration is `show -json -config`: the configuration in the
// JSON representation plans carry.
func showConfiguration(view *views.Show) diags.Diagnostics {
	parser := config.NewParser()
	parser.Static = run.StaticInputs(".", nil, os.Environ())
	cfg, hclDiags := modules.LoadConfig(parser, ".")
	ds := diags.Diagnostics{}.Append(hclDiags)
	if cfg == nil || ds.HasErrors() {
		return ds
	}
	needed := map[addrs.Provider]bool{}
	cfg.DeepEach(func(c *config.Config) {
		for _, r := range c.Module.Resources {
			needed[r.Provider] = true
		}
	})
	schemas, schemaDiags := loadSchemas(context.Background(), ".", needed)
	if ds = ds.Append(schemaDiags); ds.HasErrors() {
		return ds
	}
	return ds.Append(view.Config(cfg, schemas))
}

func showPlanFile(view *views.Show, path string, vars []inputvars.VarOption, asJSON bool) diags.Diagnostics {
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
		return ds.Append(view.Plan(plan, schemas))
	}
	// A plan Terraform or OpenTofu wrote carries its refreshed state; one
	// Terrane wrote carries the records it read, refreshed here.
	if !fromTerraform {
		if prior, err = refreshedPriorState(prior, plan, schemas); err != nil {
			return ds.Append(diags.Errorf("Cannot read the plan's prior state", "%s: %s.", path, err))
		}
	}
	return ds.Append(view.PlanJSON(jsonplan.Input{Plan: plan, Config: cfg, PriorState: prior, Schemas: schemas}, path))
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
