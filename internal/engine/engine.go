package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/builtin/remotestate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// DefaultParallelism bounds concurrent provider calls when Options leaves
// Parallelism at zero. Applying 1,000 tpsdk instances (BenchmarkApply1000,
// figures in bench/README.md) was fastest at 4 to 8 on a 2-core machine and
// 30-60% slower from 10 up, where provider processes and the engine compete
// for the cores; 8 keeps most of the overlap that latency-bound remote APIs
// need.
const DefaultParallelism = 8

// ValueSourceType says where a root module variable's value came from, for
// messages about it.
type ValueSourceType rune

// The sources of input values.
const (
	ValueFromUnknown   ValueSourceType = 0
	ValueFromConfig    ValueSourceType = 'C' // the variable's default
	ValueFromCLIArg    ValueSourceType = 'A' // -var
	ValueFromNamedFile ValueSourceType = 'F' // -var-file
	ValueFromAutoFile  ValueSourceType = 'f' // terraform.tfvars, *.auto.tfvars
	ValueFromEnvVar    ValueSourceType = 'E' // TF_VAR_name
	ValueFromInput     ValueSourceType = 'I' // interactive prompt
	ValueFromPlan      ValueSourceType = 'P' // a saved plan
	ValueFromCaller    ValueSourceType = 'S' // set by a program
)

// InputValue is a root module variable's value as given by the user.
type InputValue struct {
	Value       cty.Value
	SourceType  ValueSourceType
	SourceRange hcl.Range // for values from files
}

// InputValues are the root module's variable values by name.
type InputValues map[string]*InputValue

// Hook receives progress events; implementations must be safe for
// concurrent use, since instances are refreshed and applied in parallel.
type Hook interface {
	PreRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior cty.Value)
	PostRefresh(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior, refreshed cty.Value)
	PreApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, action plans.Action, prior, planned cty.Value)
	PostApply(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, newState cty.Value, err error)
}

// NilHook is a Hook that does nothing; embed it to implement only some
// events.
type NilHook struct{}

func (NilHook) PreRefresh(addrs.AbsResourceInstance, addrs.DeposedKey, cty.Value)             {}
func (NilHook) PostRefresh(addrs.AbsResourceInstance, addrs.DeposedKey, cty.Value, cty.Value) {}
func (NilHook) PreApply(addrs.AbsResourceInstance, addrs.DeposedKey, plans.Action, cty.Value, cty.Value) {
}
func (NilHook) PostApply(addrs.AbsResourceInstance, addrs.DeposedKey, cty.Value, error) {}

// Options are what an Engine works with.
type Options struct {
	Config *config.Config
	// Providers has a factory for every provider the configuration needs;
	// the built-in terraform provider is the engine's own.
	Providers map[addrs.Provider]providers.Factory
	// State is the workspace's records.
	State     *recordstore.Store
	Variables InputValues
	// Parallelism bounds concurrent provider calls; 0 means
	// DefaultParallelism.
	Parallelism int
	Hooks       []Hook
	// RunID is unique per run (a ULID); intents record it.
	RunID  string
	Logger hclog.Logger
	// Workspace is what terraform.workspace evaluates to; "" means
	// "default".
	Workspace string
	// OriginalWorkingDir is what path.cwd evaluates to: the directory the
	// command started in, before any -chdir; "" means the process's
	// working directory.
	OriginalWorkingDir string
	// Applying is what terraform.applying evaluates to: true for the apply
	// and destroy commands, in their plan as in their apply. It is an
	// ephemeral value, so nothing recorded can depend on it.
	Applying bool
	// RecordsRefreshState makes the apply of a refresh-only plan record
	// the root outputs as OpenTofu's refresh command does, from its plan's
	// refreshed state: an output the plan could not know keeps its
	// recorded value (or stays absent) instead of being recorded as null.
	RecordsRefreshState bool
	// RemoteState is how terraform_remote_state reads the "terrane"
	// backend's workspaces (remotestate.WorkingDirWorkspaces for the working
	// directory's store, and its project); nil leaves only the "local"
	// backend readable.
	RemoteState *remotestate.DataSource
	// ProviderWrapper, when set, may put other implementations in front
	// of provider configurations and of single resources' providers.
	ProviderWrapper ProviderWrapper
	// KeepValues keeps the root module values of the last Plan or Apply
	// for LastEvaluation, and makes a plan keep every resource's values
	// (a plan otherwise drops those nothing in the configuration reads).
	KeepValues bool
	// SuppressForgetErrors lets a destroy that forgets objects (their
	// resources say lifecycle destroy = false) succeed without an error.
	SuppressForgetErrors bool
	// RetryFor bounds how long a write waits for a store that stopped
	// answering (journal.Options.RetryFor); 0 means the journal's default.
	RetryFor time.Duration
}

// PlanOpts say what kind of plan to make.
type PlanOpts struct {
	Mode        plans.Mode // NormalMode, DestroyMode, RefreshOnlyMode
	SkipRefresh bool
	// Fresh are instances (by address) whose recorded current object is
	// known to match the remote one, so planning does not read it again
	// (plan -refresh-max-age, from a reconciler's recent InSync status).
	Fresh        map[string]bool
	Targets      []addrs.Targetable
	Excludes     []addrs.Targetable
	ForceReplace []addrs.AbsResourceInstance

	// commandLineImport is the object `terrane import` asks for: the
	// walk adopts it as if an import block named it.
	commandLineImport *importTarget
	// generating holds the addresses whose resource blocks are
	// placeholders for configuration to generate: the walk imports and
	// reads their objects and plans nothing for them.
	generating *generatingImports
}

// Engine plans and applies one configuration against one workspace.
type Engine struct {
	opts   Options
	logger hclog.Logger

	mu      sync.Mutex
	schemas *providers.Schemas
	// running are the provider processes started so far, closed by Close.
	running []providers.Interface
	// last is the last walk's values, kept when Options.KeepValues is set.
	last *Evaluation
	// unrecorded are the results the last apply could not write to the
	// store; see Unrecorded.
	unrecorded *errored.Results
}

// Unrecorded returns the results of provider calls the last Apply made but
// could not record in the store, for the caller to keep elsewhere
// (errored.Results.WriteFile); nil before any apply.
func (e *Engine) Unrecorded() *errored.Results {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.unrecorded
}

// New checks opts and returns an engine. It starts no provider yet.
func New(opts Options) (*Engine, diags.Diagnostics) {
	var ds diags.Diagnostics
	if opts.Config == nil {
		ds = ds.Append(diags.Errorf("No configuration", "The engine needs a loaded configuration; load one with config.LoadConfigDir."))
	}
	if opts.State == nil {
		ds = ds.Append(diags.Errorf("No state store", "The engine needs the workspace's record store to plan or apply."))
	}
	if ds.HasErrors() {
		return nil, ds
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = DefaultParallelism
	}
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	if opts.Workspace == "" {
		opts.Workspace = "default"
	}
	return &Engine{opts: opts, logger: opts.Logger.Named("engine")}, nil
}

// Schemas returns the schemas of the providers the last Plan or Apply
// started, for renderers; nil before either began.
func (e *Engine) Schemas() *providers.Schemas {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.schemas
}

// Close stops every provider process the engine started.
func (e *Engine) Close() error {
	e.mu.Lock()
	running := e.running
	e.running = nil
	e.mu.Unlock()
	var first error
	for _, p := range running {
		if err := p.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Plan validates the configuration (package validate), then compares it
// with the workspace's records (refreshed from the providers unless
// opts.SkipRefresh) and proposes changes. Nothing is written to the store;
// plan.PriorRecords holds every record read. The plan is nil when the
// configuration is not valid, as OpenTofu makes none then: there is no
// partial plan to show.
func (e *Engine) Plan(ctx context.Context, opts PlanOpts) (*plans.Plan, diags.Diagnostics) {
	return e.plan(context.WithValue(ctx, validateFirstKey{}, true), opts)
}

// validateFirstKey marks a plan that validates the configuration before
// anything else; a command-line import's plan does not, as in OpenTofu.
type validateFirstKey struct{}

// Apply carries out plan: it refuses a plan whose records changed since it
// was made, then makes the changes in dependency order, recording an intent
// before each call that may create, replace or delete an object and the
// result after it.
func (e *Engine) Apply(ctx context.Context, plan *plans.Plan) diags.Diagnostics {
	return e.apply(ctx, plan)
}

// warnf logs a warning of the run, formatted as fmt.Sprintf does.
func (e *Engine) warnf(format string, args ...any) {
	e.logger.Warn(fmt.Sprintf(format, args...))
}
