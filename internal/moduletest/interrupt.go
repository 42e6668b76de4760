package moduletest

import (
	"context"
	"sort"

	"github.com/terrane/terrane/internal/states"
)

// Unfinished is what a file that was interrupted before its clean-up
// ended had made: the objects in one of its states.
type Unfinished struct {
	File *File
	// Run is the run that last changed the state; Source is the run
	// block module the state is of, empty for the configuration under
	// test.
	Run    *Run
	Source string
	State  *states.State
}

// Unfinished lists, after the suite was cancelled, the objects each file
// not yet cleaned up still holds, so they can be cleaned up by hand; the
// configuration under test's state first, then the others in the order of
// the runs that last changed them.
func (s *Suite) Unfinished(ctx context.Context) []Unfinished {
	s.runnersMu.Lock()
	runners := s.runners
	s.runnersMu.Unlock()
	var out []Unfinished
	for _, fr := range runners {
		fr.mu.Lock()
		finished := fr.finished
		var held []*testState
		for _, st := range fr.states {
			held = append(held, st)
		}
		fr.mu.Unlock()
		if finished {
			continue
		}
		sort.Slice(held, func(i, j int) bool { return held[i].key < held[j].key })
		for _, st := range held {
			snap, err := st.store.Load(ctx)
			if err != nil || !hasManagedObjects(snap.State) {
				continue
			}
			u := Unfinished{File: fr.file, Source: st.key, State: snap.State}
			fr.mu.Lock()
			if n := len(st.updates); n > 0 {
				u.Run = st.updates[n-1].run
			}
			fr.mu.Unlock()
			out = append(out, u)
		}
	}
	return out
}
