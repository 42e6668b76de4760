package reconcile

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// AutoApplyDrift is the auto_apply setting that applies plans undoing
// drift. Auto-apply is off unless a workspace asks for it.
const AutoApplyDrift = "drift"

// Default timings of a workspace that sets none.
const (
	DefaultInterval = 5 * time.Minute
	DefaultTimeout  = 10 * time.Minute
)

// Workspace is one registered workspace: where its configuration is, which
// records are its state, and how to run it.
type Workspace struct {
	// Name identifies the registration (the workspace block's label).
	Name string
	// Dir is the configuration directory, initialized with `terrane init`
	// (its providers and lock file are used as they are).
	Dir string
	// Project and Workspace are the tenancy of its records.
	Project, Workspace string
	// Vars are -var options and VarFiles -var-file options, applied in
	// that order after the files and variables a run in Dir reads anyway.
	Vars     map[string]string
	VarFiles []string
	// Env is added to the process environment for the workspace's
	// variables (TF_VAR_*) and CLI configuration lookups.
	Env map[string]string
	// CLIConfigFile is the CLI configuration (provider installation,
	// credentials) the workspace's runs use; "" uses the process's.
	CLIConfigFile string
	// Interval is the time between refresh runs; Timeout bounds one run.
	Interval, Timeout time.Duration
	// AutoApply is "" (report drift only) or AutoApplyDrift.
	AutoApply string
	// Parallelism bounds concurrent provider calls; 0 is
	// DefaultParallelism.
	Parallelism int
}

// DefaultParallelism is a workspace's parallelism when its registration
// sets none: the CLI's -parallelism default (OpenTofu's), so a reconciler
// run refreshes as the same workspace's plan -refresh-only does.
const DefaultParallelism = 10

// Registrations are what a reconciler configuration file holds.
type Registrations struct {
	Workspaces []Workspace
	Limits     []ProviderLimit
}

type fileSchema struct {
	Workspaces []workspaceBlock `hcl:"workspace,block"`
	Limits     []limitBlock     `hcl:"provider_limit,block"`
}

type workspaceBlock struct {
	Name          string            `hcl:"name,label"`
	Dir           string            `hcl:"dir"`
	Project       *string           `hcl:"project"`
	Workspace     *string           `hcl:"workspace"`
	Vars          map[string]string `hcl:"vars,optional"`
	VarFiles      []string          `hcl:"var_files,optional"`
	Env           map[string]string `hcl:"env,optional"`
	CLIConfigFile *string           `hcl:"cli_config,optional"`
	Interval      *string           `hcl:"interval,optional"`
	Timeout       *string           `hcl:"timeout,optional"`
	AutoApply     *string           `hcl:"auto_apply,optional"`
	Parallelism   *int              `hcl:"parallelism,optional"`
	DeclRange     hcl.Range         `hcl:",def_range"`
}

type limitBlock struct {
	Provider       string    `hcl:"provider,label"`
	ReadsPerSecond float64   `hcl:"reads_per_second"`
	Burst          *int      `hcl:"burst,optional"`
	DeclRange      hcl.Range `hcl:",def_range"`
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// LoadFile reads a reconciler configuration file: workspace blocks and
// provider_limit blocks. Relative paths in it are relative to the file's
// directory. Every problem is a diagnostic with its source range.
func LoadFile(path string) (*Registrations, diags.Diagnostics) {
	parser := hclparse.NewParser()
	file, hclDiags := parser.ParseHCLFile(path)
	ds := diags.Diagnostics{}.Append(hclDiags)
	if ds.HasErrors() {
		return nil, ds
	}
	var decoded fileSchema
	ds = ds.Append(gohcl.DecodeBody(file.Body, nil, &decoded))
	if ds.HasErrors() {
		return nil, ds
	}
	base := filepath.Dir(path)
	regs := &Registrations{}
	seen := map[string]hcl.Range{}
	for _, block := range decoded.Workspaces {
		ws, more := block.workspace(base)
		ds = ds.Append(more)
		if first, dup := seen[ws.Name]; dup {
			ds = ds.Append(rangeError(block.DeclRange, "Duplicate workspace", "A workspace named %q was already registered at %s; give each workspace block its own name.", ws.Name, first))
			continue
		}
		seen[ws.Name] = block.DeclRange
		regs.Workspaces = append(regs.Workspaces, ws)
	}
	for _, block := range decoded.Limits {
		limit, more := block.limit()
		ds = ds.Append(more)
		regs.Limits = append(regs.Limits, limit)
	}
	return regs, ds
}

func (b workspaceBlock) workspace(base string) (Workspace, diags.Diagnostics) {
	var ds diags.Diagnostics
	ws := Workspace{Name: b.Name, Dir: absFrom(base, b.Dir), Project: "default", Workspace: "default",
		Vars: b.Vars, Env: b.Env, Interval: DefaultInterval, Timeout: DefaultTimeout}
	if !namePattern.MatchString(b.Name) {
		ds = ds.Append(rangeError(b.DeclRange, "Invalid workspace name", "%q is not a valid name: use letters, digits, '-', '_' and '.', starting with a letter or digit.", b.Name))
	}
	for field, value := range map[string]*string{"project": b.Project, "workspace": b.Workspace} {
		if value == nil {
			continue
		}
		if !namePattern.MatchString(*value) {
			ds = ds.Append(rangeError(b.DeclRange, "Invalid "+field, "%s = %q is not a valid name: use letters, digits, '-', '_' and '.', starting with a letter or digit.", field, *value))
		}
	}
	if b.Project != nil {
		ws.Project = *b.Project
	}
	if b.Workspace != nil {
		ws.Workspace = *b.Workspace
	}
	for _, file := range b.VarFiles {
		ws.VarFiles = append(ws.VarFiles, absFrom(base, file))
	}
	if b.CLIConfigFile != nil {
		ws.CLIConfigFile = absFrom(base, *b.CLIConfigFile)
	}
	ws.Interval, ds = duration(b.DeclRange, "interval", b.Interval, DefaultInterval, ds)
	ws.Timeout, ds = duration(b.DeclRange, "timeout", b.Timeout, DefaultTimeout, ds)
	if b.AutoApply != nil {
		switch *b.AutoApply {
		case AutoApplyDrift, "":
			ws.AutoApply = *b.AutoApply
		default:
			ds = ds.Append(rangeError(b.DeclRange, "Invalid auto_apply", "auto_apply = %q is not supported: the only value is %q (apply plans that undo drift); leave it out to only report drift.", *b.AutoApply, AutoApplyDrift))
		}
	}
	if b.Parallelism != nil {
		if *b.Parallelism < 1 {
			ds = ds.Append(rangeError(b.DeclRange, "Invalid parallelism", "parallelism must be at least 1, not %d.", *b.Parallelism))
		}
		ws.Parallelism = *b.Parallelism
	}
	if info, err := os.Stat(ws.Dir); err != nil || !info.IsDir() {
		ds = ds.Append(rangeError(b.DeclRange, "Invalid workspace directory", "dir = %q is not a directory: point it at the workspace's initialized configuration directory.", b.Dir))
	}
	return ws, ds
}

func duration(rng hcl.Range, field string, text *string, fallback time.Duration, ds diags.Diagnostics) (time.Duration, diags.Diagnostics) {
	if text == nil {
		return fallback, ds
	}
	d, err := time.ParseDuration(*text)
	if err != nil || d <= 0 {
		return fallback, ds.Append(rangeError(rng, "Invalid "+field, "%s = %q is not a positive duration such as \"30s\" or \"5m\".", field, *text))
	}
	return d, ds
}

func (b limitBlock) limit() (ProviderLimit, diags.Diagnostics) {
	var ds diags.Diagnostics
	limit := ProviderLimit{Provider: b.Provider, ReadsPerSecond: b.ReadsPerSecond, Burst: 1}
	if b.Burst != nil {
		limit.Burst = *b.Burst
	}
	if b.ReadsPerSecond <= 0 || limit.Burst < 1 {
		ds = ds.Append(rangeError(b.DeclRange, "Invalid provider limit", "reads_per_second must be above 0 and burst at least 1."))
	}
	if _, err := parseProvider(b.Provider); err != nil {
		ds = ds.Append(rangeError(b.DeclRange, "Invalid provider limit", "%s.", err))
	}
	return limit, ds
}

func absFrom(base, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(base, path)
}

func rangeError(rng hcl.Range, summary, format string, args ...any) diags.Diagnostic {
	d := diags.Errorf(summary, format, args...)
	d.Subject = rng.Ptr()
	return d
}

// varOptions are the workspace's variables as command-line options.
func (w Workspace) varOptions() []inputvars.VarOption {
	names := make([]string, 0, len(w.Vars))
	for name := range w.Vars {
		names = append(names, name)
	}
	sort.Strings(names)
	var options []inputvars.VarOption
	for _, name := range names {
		options = append(options, inputvars.VarOption{Text: name + "=" + w.Vars[name]})
	}
	for _, file := range w.VarFiles {
		options = append(options, inputvars.VarOption{File: true, Text: file})
	}
	return options
}

// environ is the process environment with the workspace's Env, and its
// CLI configuration file, over it.
func (w Workspace) environ() []string {
	env := os.Environ()
	names := make([]string, 0, len(w.Env))
	for name := range w.Env {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		env = append(env, name+"="+w.Env[name])
	}
	if w.CLIConfigFile != "" {
		env = append(env, "TERRANE_CLI_CONFIG_FILE="+w.CLIConfigFile)
	}
	return env
}

func (w Workspace) String() string {
	return fmt.Sprintf("%s (%s/%s in %s)", w.Name, w.Project, w.Workspace, w.Dir)
}
