package engine

import (
	"fmt"
	"strings"
	"sync"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/refactoring"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/value"
)

// refactorState is what moved, removed and import blocks change about a
// plan walk: the prior state with moves applied, the removed blocks to turn
// orphan deletes into forgets, and the imports the walk performed.
type refactorState struct {
	// statements are the moved blocks, checked once the plan is made.
	statements []refactoring.Statement
	moves      refactoring.Results
	removals   []refactoring.Removal
	// snapshot is the loaded snapshot with the moves applied; records stay
	// keyed by their new addresses.
	snapshot *recordstore.Snapshot

	imports *importTargets

	mu       sync.Mutex
	imported map[string]*plans.ImportingSrc // by instance address
}

// prepareRefactoring reads the configuration's moved and removed blocks
// and applies the moves to a copy of snap; snap itself is left as loaded,
// since the plan's prior records name the addresses the store has.
func (e *Engine) prepareRefactoring(snap *recordstore.Snapshot, mode plans.Mode) (*refactorState, diags.Diagnostics) {
	var ds diags.Diagnostics
	stmts, hds := refactoring.FindStatements(e.opts.Config)
	ds = ds.Append(hds)
	removals, hds := refactoring.FindRemovals(e.opts.Config)
	if mode == plans.NormalMode {
		// As in OpenTofu, only a normal plan checks removed blocks.
		ds = ds.Append(hds)
	}
	imports, ids := findImportTargets(e.opts.Config)
	ds = ds.Append(ids)
	if ds.HasErrors() {
		return nil, ds
	}
	rf := &refactorState{statements: stmts, removals: removals, imports: imports, imported: map[string]*plans.ImportingSrc{}, snapshot: snap}
	stmts = append(stmts, refactoring.ImpliedStatements(e.opts.Config, snap.State, stmts)...)
	if len(stmts) == 0 {
		rf.moves = refactoring.Results{Moves: map[string]*refactoring.Move{}}
		return rf, ds
	}
	moved := &recordstore.Snapshot{State: snap.State.DeepCopy(), Workspace: snap.Workspace, InstanceVersions: map[string]recordstore.RecordVersion{}}
	rf.moves = refactoring.ApplyMoves(stmts, moved.State)
	for name, v := range snap.InstanceVersions {
		moved.InstanceVersions[name] = v
	}
	for to, m := range rf.moves.Moves {
		delete(moved.InstanceVersions, m.From.String())
		if v, ok := snap.InstanceVersions[m.From.String()]; ok {
			moved.InstanceVersions[to] = v
		}
	}
	rf.snapshot = moved
	return rf, ds
}

// validateMoves checks the moved blocks once the plan is made, as OpenTofu
// does (their moves had to be made to plan at all); then, when the plan
// has no errors, warns of moves blocked by objects already at their
// destinations.
func (rf *refactorState) validateMoves(cfg *config.Config, planDiags diags.Diagnostics) (errs, warnings diags.Diagnostics) {
	if vds := (diags.Diagnostics{}).Append(refactoring.ValidateMoves(cfg, rf.statements)); vds.HasErrors() {
		return vds, nil
	}
	if len(rf.moves.Blocked) > 0 && !planDiags.HasErrors() {
		warnings = warnings.Append(blockedMovesWarning(rf.moves.Blocked))
	}
	return nil, warnings
}

// blockedMovesWarning lists the moves not made because objects already
// exist at their destinations, in OpenTofu's words.
func blockedMovesWarning(blocked []refactoring.Blocked) diags.Diagnostic {
	var items strings.Builder
	for _, b := range blocked {
		fmt.Fprintf(&items, "\n  - %s could not move to %s", b.From, b.To)
	}
	return diags.Diagnostic{Severity: diags.Warning, Summary: "Unresolved resource instance address changes", Sourceless: true,
		Detail: fmt.Sprintf("Terrane tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:%s\n\nTerrane has planned to destroy these objects. If Terrane's proposed changes aren't appropriate, you must first resolve the conflicts using the \"terrane state\" subcommands and then create a new plan.", items.String())}
}

// finishPlan records in the plan what the refactoring did: the previous
// address of every moved object, forgets in place of deletes that a
// removed block without destroy = true covers, and the imports. A plan
// that only moves, imports or forgets still has something to apply. Each
// forgotten object gets OpenTofu's warning that it leaves management.
func (rf *refactorState) finishPlan(plan *plans.Plan) diags.Diagnostics {
	var ds diags.Diagnostics
	somethingToApply := false
	for _, c := range plan.Changes.Resources {
		c.PrevRunAddr = rf.moves.PrevRunAddr(c.Addr)
		if c.Moved() {
			somethingToApply = true
		}
		if imp := rf.importOf(c.Addr); imp != nil && c.DeposedKey == addrs.NotDeposed {
			c.Importing = imp
			somethingToApply = true
		}
		if c.Moved() && c.Action == plans.Delete && c.ActionReason == plans.DeleteBecauseNoResourceConfig {
			c.ActionReason = plans.DeleteBecauseNoMoveTarget
		}
		if c.Action == plans.Delete && c.DeposedKey == addrs.NotDeposed && isOrphanReason(c.ActionReason) {
			if r := rf.removalFor(c.Addr); r != nil && !r.Destroy {
				c.Action, c.After = plans.Forget, value.Dynamic{}
				c.AfterSensitivePaths = nil
				ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Resource will be removed from the state",
					Detail:     fmt.Sprintf("After this plan is applied, the resource %s will not be managed anymore by Terrane.\n\nIn case you want to manage the resource again, you will have to import it.", c.Addr),
					Sourceless: true})
			}
		}
	}
	for _, c := range plan.DriftedResources {
		c.PrevRunAddr = rf.moves.PrevRunAddr(c.Addr)
	}
	if somethingToApply && !plan.Errored {
		plan.Applyable = true
	}
	return ds
}

func isOrphanReason(r plans.ActionReason) bool {
	switch r {
	case plans.DeleteBecauseNoResourceConfig, plans.DeleteBecauseWrongRepetition, plans.DeleteBecauseCountIndex,
		plans.DeleteBecauseEachKey, plans.DeleteBecauseNoModule, plans.DeleteBecauseNoMoveTarget,
		plans.DeleteBecauseEnabledFalse:
		return true
	}
	return false
}

// removalFor returns the removed block covering addr, if any.
func (rf *refactorState) removalFor(addr addrs.AbsResourceInstance) *refactoring.Removal {
	for i := range rf.removals {
		if rf.removals[i].Covers(addr) {
			return &rf.removals[i]
		}
	}
	return nil
}

func (rf *refactorState) importOf(addr addrs.AbsResourceInstance) *plans.ImportingSrc {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	return rf.imported[addr.String()]
}
