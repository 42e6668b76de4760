package moduletest

import (
	"context"
	"path/filepath"
	"sort"
	"sync"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store/memory"
)

// fileRunner runs one file's runs. Runs that depend on nothing still
// running start at once; the outcome is then read in file order as if
// they had run one after another (see settle).
type fileRunner struct {
	s    *Suite
	file *File
	// done[i] is closed when run i has finished or been skipped.
	done []chan struct{}

	mu     sync.Mutex
	states map[string]*testState
	// finished is set once the file's clean-up is over, uninterrupted.
	finished bool
}

// testState is one of a file's throwaway states: the configuration under
// test's (key "") or a run block module's (key: its source). Runs that
// apply change it in file order.
type testState struct {
	key   string
	store *recordstore.Store
	// updates are the runs that changed the state, in the order they
	// did, with the root outputs each left behind.
	updates []stateUpdate
}

type stateUpdate struct {
	run     *Run
	outputs cty.Value
}

func newFileRunner(s *Suite, f *File) *fileRunner {
	fr := &fileRunner{s: s, file: f, states: map[string]*testState{}, done: make([]chan struct{}, len(f.Runs))}
	for i := range fr.done {
		fr.done[i] = make(chan struct{})
	}
	return fr
}

// stateKey names the state a run works on.
func stateKey(run *Run) string {
	if run.Module == nil {
		return ""
	}
	return filepath.Clean(run.Module.Source)
}

// state returns the file's state of key, making an empty one in memory on
// first use; nothing in it outlives the suite.
func (fr *fileRunner) state(key string) *testState {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if st := fr.states[key]; st != nil {
		return st
	}
	registry := resourceservice.NewRegistry()
	// Registering the record types into a new registry cannot fail.
	_ = records.Register(registry)
	st := &testState{key: key, store: recordstore.New(resourceservice.New(memory.New(), registry), "test", "test")}
	fr.states[key] = st
	return st
}

// recordUpdate notes that run changed the state of key, leaving outputs.
func (fr *fileRunner) recordUpdate(key string, run *Run, outputs cty.Value) {
	st := fr.state(key)
	fr.mu.Lock()
	defer fr.mu.Unlock()
	st.updates = append(st.updates, stateUpdate{run: run, outputs: outputs})
	sort.SliceStable(st.updates, func(i, j int) bool { return st.updates[i].run.Index < st.updates[j].run.Index })
}

// visibleRuns are the run outputs a run at index before can refer to: for
// each state, those of the last run before it that changed that state,
// as OpenTofu offers them (an older run on the same state is no longer
// visible, nor is a plan run). before < 0 means after every run.
func (fr *fileRunner) visibleRuns(before int) map[string]cty.Value {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	out := map[string]cty.Value{}
	for _, st := range fr.states {
		var last *stateUpdate
		for i := range st.updates {
			if before < 0 || st.updates[i].run.Index < before {
				last = &st.updates[i]
			}
		}
		if last != nil {
			out[last.run.Name] = last.outputs
		}
	}
	return out
}

// execute runs the file's runs, reports them, and then destroys what they
// created and reports that. A clean-up that leaves objects behind does
// not change the file's status, as in OpenTofu: the objects are listed
// and written to a state file instead.
func (fr *fileRunner) execute(stop, cancel context.Context) {
	f := fr.file
	if f.Diagnostics.HasErrors() {
		f.Status = Error
		for _, run := range f.Runs {
			run.Status = Skip
		}
		fr.reportRuns()
		return
	}
	f.Status = Pass
	deps := dependencies(f)
	var wg sync.WaitGroup
	for i, run := range f.Runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(fr.done[i])
			for _, d := range deps[i] {
				<-fr.done[d]
			}
			if stop.Err() != nil || fr.earlierRunErrored(i) || !fr.s.acquire(cancel) {
				run.Status = Skip
				return
			}
			defer fr.s.release()
			fr.executeRun(cancel, run)
		}()
	}
	wg.Wait()
	fr.settle()
	if cancel.Err() != nil {
		return // nothing is reported or destroyed: see Suite.Unfinished
	}
	fr.reportRuns()
	fr.cleanup(cancel)
	fr.s.carried.fileDone(f)
	fr.mu.Lock()
	fr.finished = cancel.Err() == nil
	fr.mu.Unlock()
}

// earlierRunErrored reports whether a run before run i has already ended
// with an error, after which OpenTofu runs nothing more in the file.
func (fr *fileRunner) earlierRunErrored(i int) bool {
	for j := 0; j < i; j++ {
		select {
		case <-fr.done[j]:
			if fr.file.Runs[j].Status == Error {
				return true
			}
		default:
		}
	}
	return false
}

// settle gives the runs the outcome they would have had one after
// another: once a run errors, every later one is skipped, including one
// that was already under way beside it (what it created is still
// destroyed with the rest).
func (fr *fileRunner) settle() {
	errored := false
	for _, run := range fr.file.Runs {
		if errored {
			run.Status, run.Diagnostics, run.Verbose = Skip, nil, nil
			continue
		}
		fr.file.Status = fr.file.Status.Merge(run.Status)
		errored = run.Status == Error
	}
}

// reportRuns hands the file and its runs to the view.
func (fr *fileRunner) reportRuns() {
	v := fr.s.View
	v.File(fr.file)
	for _, run := range fr.file.Runs {
		v.Run(run, fr.file)
	}
}
