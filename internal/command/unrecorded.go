package command

import (
	"fmt"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states/errored"
)

// keepUnrecorded writes the results the apply could not record to
// errored.tfstate beside the configuration and says so, naming each
// address and its object's ID. aborted says the run was stopped while
// those results still waited for the store, rather than refused by it.
// When even that file cannot be written, the results are printed instead:
// that is then their only copy. Both are encrypted as the state is.
func (op *operation) keepUnrecorded(aborted bool) diags.Diagnostics {
	return keepResults(op.Engine.Unrecorded(), op.Dir, run.ErroredSealing(op.Encryption), aborted)
}

func keepResults(results *errored.Results, dir string, sealing errored.Sealing, aborted bool) diags.Diagnostics {
	if results.Len() == 0 {
		return nil
	}
	entries := results.Entries()
	why := "the store refused their results"
	if aborted {
		why = "the run was stopped before the store had their results"
	}
	path, err := results.WriteFile(dir, sealing)
	if err == nil {
		return diags.Diagnostics{diags.Errorf(run.UnrecordedSummary,
			"%d provider call(s) of this run finished, but %s:\n%s\n\n%s",
			len(entries), why, errored.Describe(entries), errored.Advice(run.DisplayPath(path)))}
	}
	// Results that cannot be encrypted are not printed plain: the
	// addresses and IDs above are then all that is left of them, as
	// OpenTofu prints nothing when it cannot encrypt its state dump.
	src, encodeErr := results.Encode(sealing)
	if encodeErr != nil {
		src = []byte(fmt.Sprintf("(the results could not be encoded either: %s)", encodeErr))
	}
	return diags.Diagnostics{diags.Errorf(run.UnrecordedSummary,
		"%d provider call(s) of this run finished, but %s:\n%s\n\n"+
			"Writing them to %s failed too: %s. Their only copy is below: save it, from the first { to the last } inclusive, as %s in this directory, then, once the store can be written again, run:\n    terrane state push %s\n\n%s",
		len(entries), why, errored.Describe(entries), errored.FileName, err, errored.FileName, errored.FileName, src)}
}
