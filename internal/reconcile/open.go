package reconcile

import (
	"cmp"
	"context"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/logging"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states/recordstore"
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
	environ := ws.environ()
	r, ds := run.Open(ctx, run.Options{
		Dir:     ws.Dir,
		Environ: environ,
		Vars:    ws.varOptions(),
		Values: func(cfg *config.Config) (engine.InputValues, diags.Diagnostics) {
			return inputValues(ws, cfg, environ)
		},
		Store:     recordstore.New(setup.service, ws.Project, ws.Workspace),
		Project:   ws.Project,
		Workspace: ws.Workspace,
		Engine: engine.Options{
			Parallelism:     cmp.Or(ws.Parallelism, DefaultParallelism),
			Hooks:           setup.hooks,
			RunID:           setup.runID,
			Logger:          logging.Named("reconcile"),
			Applying:        setup.applying,
			ProviderWrapper: setup.limits.forRun(ctx),
		},
	})
	if r == nil {
		return nil, ds
	}
	return r.Engine, ds
}

// inputValues gathers the root module's variable values as a run in the
// workspace's directory with its -var and -var-file options would.
func inputValues(ws Workspace, cfg *config.Config, environ []string) (engine.InputValues, diags.Diagnostics) {
	decls := cfg.Module.Variables
	given, ds := inputvars.CollectValues(ws.Dir, decls, ws.varOptions(), environ)
	_, resolveDiags := inputvars.Resolve(decls, given)
	ds = ds.Append(resolveDiags)
	return given.Engine(), ds
}
