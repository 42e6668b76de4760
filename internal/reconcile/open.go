package reconcile

import (
	"cmp"
	"context"

	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/logging"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/workdir"
)

// runSetup is what one run of a workspace needs besides its spec.
type runSetup struct {
	service  *resourceservice.Service
	limits   *limiters
	hooks    []engine.Hook
	runID    string
	applying bool
}

// openEngine loads the workspace's configuration and variables as `terrane
// plan` run in its directory would, and returns an engine over its records
// in the reconciler's store. The caller closes the engine, which ends the
// provider processes it started.
func openEngine(ctx context.Context, ws Workspace, setup runSetup) (*engine.Engine, diags.Diagnostics) {
	cfg, hclDiags := modules.LoadConfig(config.NewParser(), ws.Dir)
	ds := diags.Diagnostics{}.Append(hclDiags)
	if cfg == nil || ds.HasErrors() {
		return nil, ds
	}
	variables, varDiags := inputValues(ws, cfg)
	ds = ds.Append(varDiags)
	if ds.HasErrors() {
		return nil, ds
	}
	cli, cliDiags := cliconfig.Load(cliconfig.Environment{WorkingDir: ws.Dir, Getenv: ws.getenv})
	ds = ds.Append(cliDiags)
	if ds.HasErrors() {
		return nil, ds
	}
	factories, _, factoryDiags := workdir.ConfiguredProviderFactories(ctx, ws.Dir, cfg, cli)
	ds = ds.Append(factoryDiags)
	if ds.HasErrors() {
		return nil, ds
	}
	eng, engineDiags := engine.New(engine.Options{
		Config:          cfg,
		Providers:       factories,
		State:           recordstore.New(setup.service, ws.Project, ws.Workspace),
		Variables:       variables,
		Parallelism:     cmp.Or(ws.Parallelism, DefaultParallelism),
		Hooks:           setup.hooks,
		RunID:           setup.runID,
		Logger:          logging.Named("reconcile"),
		Workspace:       ws.Workspace,
		Applying:        setup.applying,
		RemoteState:     &remotestate.DataSource{OpenWorkspace: remotestate.WorkingDirWorkspaces(ws.Dir), Project: ws.Project},
		ProviderWrapper: setup.limits.forRun(ctx),
	})
	ds = ds.Append(engineDiags)
	if ds.HasErrors() {
		if eng != nil {
			_ = eng.Close()
		}
		return nil, ds
	}
	return eng, ds
}

// inputValues gathers the root module's variable values as a run in the
// workspace's directory with its -var and -var-file options would.
func inputValues(ws Workspace, cfg *config.Config) (engine.InputValues, diags.Diagnostics) {
	decls := cfg.Module.Variables
	given, ds := inputvars.CollectValues(ws.Dir, decls, ws.varOptions(), ws.environ())
	_, resolveDiags := inputvars.Resolve(decls, given)
	ds = ds.Append(resolveDiags)
	return given.Engine(), ds
}
