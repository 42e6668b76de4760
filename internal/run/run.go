package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/workdir"
)

// Options say what a run needs beyond its working directory.
type Options struct {
	// Dir is the working directory; Environ its environment (nil: the
	// process's), which variables, TF_ENCRYPTION, the CLI configuration
	// and the backend's settings are read from.
	Dir     string
	Environ []string
	// Vars are the -var and -var-file options, in order.
	Vars []inputvars.VarOption
	// Saved is the saved plan being applied, if any: its recorded values
	// serve the early evaluation of module sources and the encryption
	// configuration.
	Saved *plans.Plan
	// Encryption, when not nil, is the encryption in use already (the one
	// a saved plan was read with); otherwise the configuration's is built.
	Encryption *encryption.Encryption
	// Values gives the root module's variable values once the
	// configuration is loaded; nil runs without (a graph is made of
	// references, not values, so an unset variable is no error there).
	Values func(cfg *config.Config) (engine.InputValues, diags.Diagnostics)
	// Store, when not nil, holds the workspace's records (the reconciler's
	// store, shared by many configurations), with Project and Workspace;
	// otherwise the working directory's configured store and its current
	// workspace are opened.
	Store              *recordstore.Store
	Project, Workspace string
	// Plans says the run plans changes: errored.tfstate must hold no
	// results the records lack, and, when MayCreate says the plan may
	// create objects, no state kept by Terraform or OpenTofu may be left
	// untaken.
	Plans, MayCreate bool
	// GeneratingConfig allows import blocks whose targets are not yet
	// declared: plan -generate-config-out writes their blocks.
	GeneratingConfig bool
	// Sources receives the files read, for diagnostics' snippets; it may
	// be nil.
	Sources func(map[string]*hcl.File)
	// Engine are the engine's options; Config, Providers, State,
	// Variables, Workspace, RetryFor and RemoteState are filled in.
	Engine engine.Options
}

// A Run is an open run: its configuration, encryption, records and an
// engine over them. Close it to end its provider processes and release
// the store.
type Run struct {
	Dir, Project, Workspace string
	Config                  *config.Config
	// LockFile is the dependency lock file's content, recorded in saved
	// plans.
	LockFile   []byte
	Encryption *encryption.Encryption
	// Cipher applies the state target to the workspace's records.
	Cipher *encryption.RecordCipher
	Store  *recordstore.Store
	// RetryFor is the store's retry_timeout; 0 means the default.
	RetryFor time.Duration
	Engine   *engine.Engine

	closeStore func() error
}

// Open loads the configuration in opts.Dir, gathers its variable values,
// builds its encryption, opens the workspace's records and the installed
// providers, and returns an engine over them. On failure it returns nil
// with the diagnostics, having closed what it opened.
func Open(ctx context.Context, opts Options) (*Run, diags.Diagnostics) {
	if opts.Environ == nil {
		opts.Environ = os.Environ()
	}
	r := &Run{Dir: opts.Dir}
	// As OpenTofu's backend does before anything else, a provider the
	// lock file selects must be installed.
	if ds := workdir.CheckInstalledProvidersIn(r.Dir, func(name string) string { return getenv(opts.Environ, name) }); ds.HasErrors() {
		return nil, ds
	}
	ds := r.loadConfig(opts)
	if ds.HasErrors() {
		return nil, ds
	}
	var variables engine.InputValues
	if opts.Values != nil {
		var varDiags diags.Diagnostics
		variables, varDiags = opts.Values(r.Config)
		if ds = ds.Append(varDiags); ds.HasErrors() {
			return nil, ds
		}
	}
	if ds = ds.Append(r.loadEncryption(opts)); ds.HasErrors() {
		return nil, ds
	}
	factories, lockFile, factoryDiags := ProviderFactories(ctx, r.Dir, r.Config, opts.Environ, opts.Sources)
	r.LockFile = lockFile
	if ds = ds.Append(factoryDiags); ds.HasErrors() {
		return nil, ds
	}
	if storeDiags := r.openStore(opts); storeDiags.HasErrors() {
		return nil, ds.Append(storeDiags)
	}
	if checkDiags := r.checkBeforePlan(ctx, opts); checkDiags.HasErrors() {
		r.Close()
		return nil, ds.Append(checkDiags)
	}
	engineOpts := opts.Engine
	engineOpts.Config, engineOpts.Providers, engineOpts.State = r.Config, factories, r.Store
	engineOpts.Variables, engineOpts.Workspace, engineOpts.RetryFor = variables, r.Workspace, r.RetryFor
	engineOpts.RemoteState = &remotestate.DataSource{OpenWorkspace: remotestate.WorkingDirWorkspaces(r.Dir), Project: r.Project, Encryption: r.Encryption}
	eng, engineDiags := engine.New(engineOpts)
	r.Engine = eng
	if ds = ds.Append(engineDiags); ds.HasErrors() {
		r.Close()
		return nil, ds
	}
	return r, ds
}

// Close ends the engine's provider processes and releases the store.
func (r *Run) Close() {
	if r.Engine != nil {
		r.Engine.Close()
	}
	if r.closeStore != nil {
		r.closeStore()
	}
}

// loadConfig loads the configuration, its module sources and versions
// evaluated early with the run's variables (or a saved plan's).
func (r *Run) loadConfig(opts Options) diags.Diagnostics {
	parser := config.NewParser()
	parser.Static = StaticInputs(r.Dir, opts.Vars, opts.Environ)
	if opts.Saved != nil {
		parser.Static = SavedPlanStaticInputs(r.Dir, opts.Saved)
	}
	cfg, hclDiags := modules.LoadConfig(parser, r.Dir)
	if opts.Sources != nil {
		opts.Sources(parser.Files())
	}
	if opts.GeneratingConfig {
		hclDiags = withoutUndeclaredImportTargets(cfg, hclDiags)
	}
	ds := diags.Diagnostics{}.Append(hclDiags)
	if cfg == nil && !ds.HasErrors() {
		ds = ds.Append(diags.Errorf("No configuration", "No configuration was loaded from %s.", r.Dir))
	}
	r.Config = cfg
	return ds
}

// loadEncryption prepares the configuration's state and plan encryption:
// the one given, else one evaluated with the run's variables — from the
// command line, variable files and the environment, or those of the saved
// plan. A store given by the caller is shared by many configurations and
// holds no encrypted records, so a configuration that encrypts its state
// cannot run there.
func (r *Run) loadEncryption(opts Options) diags.Diagnostics {
	enc := opts.Encryption
	var ds diags.Diagnostics
	if enc == nil {
		if enc, ds = LoadEncryption(r.Dir, r.Config.Module, opts.Vars, opts.Saved, opts.Environ); ds.HasErrors() {
			return ds
		}
	}
	if opts.Store != nil && !enc.State().WritesPlain() {
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "State encryption is not supported here",
			Detail: fmt.Sprintf("The configuration in %s encrypts its state, and its records would be kept in a store shared with other configurations, unencrypted. "+
				"Run it with terrane plan and apply in its directory, or remove its state encryption.", r.Dir),
			Subject: encryptionRange(r.Config)})
	}
	r.Encryption, r.Cipher = enc, encryption.NewRecordCipher(enc.State())
	return ds.Append(childEncryptionWarnings(r.Config))
}

func encryptionRange(cfg *config.Config) *hcl.Range {
	if cfg.Module.Encryption == nil {
		return nil
	}
	return cfg.Module.Encryption.DeclRange.Ptr()
}

// childEncryptionWarnings says that encryption blocks of called modules do
// nothing: only the root module's encryption applies.
func childEncryptionWarnings(cfg *config.Config) diags.Diagnostics {
	var ds diags.Diagnostics
	cfg.DeepEach(func(c *config.Config) {
		if c.Parent == nil || c.Module.Encryption == nil {
			return
		}
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Encryption block in a called module",
			Detail:  fmt.Sprintf("Only the root module's encryption block configures encryption; this one, in module.%s, has no effect. Move it to the root module, or remove it.", strings.Join(c.Path, ".module.")),
			Subject: c.Module.Encryption.DeclRange.Ptr()})
	})
	return ds
}

// openStore opens the workspace's records: those of the store the caller
// gave, or of the working directory's store and current workspace.
func (r *Run) openStore(opts Options) diags.Diagnostics {
	if opts.Store != nil {
		r.Store, r.Project, r.Workspace = opts.Store, opts.Project, opts.Workspace
		return nil
	}
	project, err := workdir.Project()
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Invalid project", "%s.", err)}
	}
	workspace, err := workdir.CurrentWorkspace(r.Dir)
	if err != nil {
		return diags.Diagnostics{CurrentWorkspaceError(err)}
	}
	store, closeStore, err := workdir.OpenStore(r.Dir, project, workspace, r.Cipher)
	if err != nil {
		return diags.Diagnostics{}.Append(err)
	}
	r.Store, r.closeStore, r.Workspace, r.Project = store, closeStore, workspace, project
	// OpenStore has read and checked these settings already.
	if settings, ds := workdir.StoreSettings(r.Dir); !ds.HasErrors() {
		r.RetryFor = settings.RetryFor()
	}
	return nil
}

// checkBeforePlan refuses a plan that would go wrong for what lies beside
// the records: results an earlier run could not record, or state Terraform
// or OpenTofu keep that was never taken in.
func (r *Run) checkBeforePlan(ctx context.Context, opts Options) diags.Diagnostics {
	if !opts.Plans {
		return nil
	}
	if ds := r.checkUnrecorded(ctx); ds.HasErrors() {
		return ds
	}
	if opts.Saved != nil || !opts.MayCreate {
		return nil
	}
	return r.refuseUntakenState(ctx, opts.Environ)
}

// CurrentWorkspaceError is the error for a current workspace that cannot
// be worked out. An invalid TF_WORKSPACE is reported as OpenTofu reports
// it: its message alone, as the summary.
func CurrentWorkspaceError(err error) diags.Diagnostic {
	if errors.Is(err, workdir.ErrInvalidWorkspaceEnv) {
		return diags.Diagnostic{Severity: diags.Error, Summary: err.Error()}
	}
	return diags.Errorf("Invalid workspace", "%s.", err)
}

// withoutUndeclaredImportTargets drops the loader's complaints that an
// import block's target is undeclared: with -generate-config-out those
// are the targets whose blocks are about to be written.
func withoutUndeclaredImportTargets(cfg *config.Config, ds hcl.Diagnostics) hcl.Diagnostics {
	if cfg == nil {
		return ds
	}
	out := make(hcl.Diagnostics, 0, len(ds))
	for _, d := range ds {
		if d.Summary == "Reference to undeclared resource" && d.Subject != nil && inImportTarget(cfg.Module.Import, *d.Subject) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func inImportTarget(blocks []*config.Import, rng hcl.Range) bool {
	for _, block := range blocks {
		to := block.To.Range()
		if to.Filename == rng.Filename && to.ContainsOffset(rng.Start.Byte) {
			return true
		}
	}
	return false
}

// ProviderFactories returns a factory for every provider cfg needs, each
// an installed package that matches the dependency lock file of dir, and
// the lock file's content. sources, when not nil, receives the lock file
// for diagnostics' snippets.
func ProviderFactories(ctx context.Context, dir string, cfg *config.Config, environ []string, sources func(map[string]*hcl.File)) (map[addrs.Provider]providers.Factory, []byte, diags.Diagnostics) {
	lockFile, _ := os.ReadFile(workdir.LockFilePath(dir))
	cli, ds := cliconfig.Load(cliconfig.Environment{WorkingDir: dir, Getenv: func(name string) string { return getenv(environ, name) }})
	if ds.HasErrors() {
		return nil, lockFile, ds
	}
	factories, locks, factoryDiags := workdir.ConfiguredProviderFactories(ctx, dir, cfg, cli)
	if sources != nil && locks != nil {
		sources(locks.Sources())
	}
	return factories, lockFile, ds.Append(factoryDiags)
}

// getenv looks name up in environ, the last setting winning as in a
// process's environment.
func getenv(environ []string, name string) string {
	value := ""
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			value = v
		}
	}
	return value
}
