package moduletest

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// View receives a suite's results in file order, each file's once its
// runs and its clean-up are done.
type View interface {
	// File reports a file's status and the problems reading it, before
	// its runs.
	File(f *File)
	// Run reports one run: its status, diagnostics and, when asked for,
	// its plan or state.
	Run(r *Run, f *File)
	// DestroySummary reports destroying what one state of the file held:
	// what went wrong and the objects left behind. run is the run whose
	// configuration the state was destroyed with.
	DestroySummary(ds diags.Diagnostics, run *Run, f *File, left *states.State)
}

// Verbose is what -verbose shows of a run: its plan (command = plan) or
// the state after it (command = apply), with the schemas to render them.
type Verbose struct {
	Plan    *plans.Plan
	State   *states.State
	Config  *config.Config
	Schemas *providers.Schemas
}

// Suite is the test files of one configuration and how to run them.
type Suite struct {
	// Config is the configuration under test: the working directory's.
	Config *config.Config
	Files  []*File
	// Globals are the variable values given outside the test files.
	Globals map[string]GlobalValue
	// Providers has a factory for every provider the configuration and
	// the test files need.
	Providers map[addrs.Provider]providers.Factory
	// Modules are the run blocks' modules, loaded as init installed them,
	// by their source.
	Modules map[string]*config.Config
	// Parallelism bounds the runs of a file executing at once; 1 runs
	// them one after another, as OpenTofu does. Files always run one
	// after another.
	Parallelism int
	Verbose     bool
	// Workspace is what terraform.workspace evaluates to.
	Workspace string
	Logger    hclog.Logger
	View      View

	slots     chan struct{}
	factories map[addrs.Provider]providers.Factory
	runnersMu sync.Mutex
	runners   []*fileRunner
	modules   moduleCache
	sources   sourceSet
	carried   carriedOverrides
}

// Run executes the files one after another, as OpenTofu does: a file's
// runs, then its report through View, then its clean-up and the clean-up's
// report, before the next file starts, so that files sharing objects
// outside their state (paths on disk, remote objects) do not meet. It
// returns the suite's status. Once stop is cancelled no further run starts
// (they are skipped) but each file still destroys what it created; once
// cancel is cancelled the operations in flight are interrupted and nothing
// is destroyed.
func (s *Suite) Run(stop, cancel context.Context) Status {
	if s.Parallelism < 1 {
		s.Parallelism = 1
	}
	if s.Logger == nil {
		s.Logger = hclog.NewNullLogger()
	}
	s.slots = make(chan struct{}, s.Parallelism)
	pool := newProcessPool(s.Providers)
	defer pool.close()
	s.factories = pool.Factories()
	// With no files the suite passed, as OpenTofu's does.
	status := Pass
	for _, f := range s.Files {
		fr := newFileRunner(s, f)
		s.runnersMu.Lock()
		s.runners = append(s.runners, fr)
		s.runnersMu.Unlock()
		fr.execute(stop, cancel)
		if cancel.Err() != nil {
			return Error
		}
		status = status.Merge(f.Status)
	}
	return status
}

// Sources returns the text of every configuration file the suite read for
// run blocks' modules, for diagnostic snippets.
func (s *Suite) Sources() map[string]*hcl.File {
	return s.sources.all()
}

// acquire takes one of the Parallelism slots; false when cancel ended
// first.
func (s *Suite) acquire(cancel context.Context) bool {
	select {
	case s.slots <- struct{}{}:
		return true
	case <-cancel.Done():
		return false
	}
}

func (s *Suite) release() { <-s.slots }

// moduleCache loads each run block's module once for the whole suite.
type moduleCache struct {
	mu     sync.Mutex
	loaded map[string]*loadedModule
}

type loadedModule struct {
	once   sync.Once
	config *config.Config
	diags  diags.Diagnostics
}

// load reads the module at source, a path relative to the working
// directory.
func (s *Suite) loadModule(source string) (*config.Config, diags.Diagnostics) {
	key := filepath.Clean(source)
	if cfg := s.Modules[key]; cfg != nil {
		return cfg, nil
	}
	s.modules.mu.Lock()
	if s.modules.loaded == nil {
		s.modules.loaded = map[string]*loadedModule{}
	}
	m := s.modules.loaded[key]
	if m == nil {
		m = &loadedModule{}
		s.modules.loaded[key] = m
	}
	s.modules.mu.Unlock()
	m.once.Do(func() {
		parser := config.NewParser()
		cfg, hd := parser.LoadConfig(key)
		s.sources.add(parser.Files())
		m.config, m.diags = cfg, diags.Diagnostics{}.Append(hd)
	})
	return m.config, m.diags
}

type sourceSet struct {
	mu    sync.Mutex
	files map[string]*hcl.File
}

func (s *sourceSet) add(files map[string]*hcl.File) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]*hcl.File{}
	}
	for name, f := range files {
		s.files[name] = f
	}
}

func (s *sourceSet) all() map[string]*hcl.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]*hcl.File, len(s.files))
	for name, f := range s.files {
		out[name] = f
	}
	return out
}
