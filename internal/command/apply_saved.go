package command

import (
	"bytes"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/planfile"
)

// applySavedPlan is `terrane apply PLANFILE`.
func applySavedPlan(out *views.Operation, opts *arguments.Apply) int {
	plan, snapshot, lockFile, enc, ds := readSavedPlan(opts.PlanFile, ".", opts.Vars)
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	op, openDiags := openOperation(out, opts.Operation, plan, enc)
	ds = ds.Append(openDiags)
	if op != nil {
		defer op.Close()
	}
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	ds = ds.Append(op.checkSavedPlanInputs(opts.PlanFile, snapshot, lockFile))
	if !ds.HasErrors() && plan.Errored {
		ds = ds.Append(diags.Errorf("Saved plan is not applyable",
			"The plan in %s was made by a run that failed, so it is incomplete. Fix the errors it reported and make a new plan.", opts.PlanFile))
	}
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	out.SavedPlanChanges(plan.Changes.Resources)
	return applyAndReport(op, plan, ds)
}

// readSavedPlan reads the plan file at path with the encryption of the
// configuration in dir (see savedPlanEncryption), which it returns for the
// apply to use: keys it derived to read the plan serve the state too.
func readSavedPlan(path, dir string, vars []inputvars.VarOption) (*plans.Plan, *planfile.ConfigSnapshot, []byte, *encryption.Encryption, diags.Diagnostics) {
	fail := func(ds diags.Diagnostics) (*plans.Plan, *planfile.ConfigSnapshot, []byte, *encryption.Encryption, diags.Diagnostics) {
		return nil, nil, nil, nil, planFileFailure("Failed to read the saved plan", path, ds)
	}
	enc, reader, ds := savedPlanEncryption(path, dir, vars)
	if ds.HasErrors() {
		return fail(ds)
	}
	defer reader.Close()
	plan, err := reader.ReadPlan()
	if err != nil {
		return fail(ds.Append(err))
	}
	snapshot, err := reader.ReadConfigSnapshot()
	if err != nil {
		return fail(ds.Append(err))
	}
	lockFile, _, err := reader.ReadLockFile()
	if err != nil {
		return fail(ds.Append(err))
	}
	return plan, snapshot, lockFile, enc, ds
}

// checkSavedPlanInputs refuses a saved plan when the configuration files
// or the dependency lock file changed since it was made: applying it would
// evaluate different expressions, or start different providers, than those
// the plan was made with.
func (op *operation) checkSavedPlanInputs(path string, saved *planfile.ConfigSnapshot, savedLock []byte) diags.Diagnostics {
	var ds diags.Diagnostics
	current, err := configSnapshot(op.Config)
	if err != nil {
		return ds.Append(diags.Errorf("Failed to read the configuration", "Comparing it with the saved plan %s: %s.", path, err))
	}
	if changed := changedConfigFiles(saved, current); len(changed) > 0 {
		ds = ds.Append(diags.Errorf("Configuration changed since the plan was made",
			"The saved plan %s was made from a different configuration: %s changed. Make a new plan with \"terrane plan -out=%s\".",
			path, strings.Join(changed, ", "), path))
	}
	if !bytes.Equal(savedLock, op.LockFile) {
		ds = ds.Append(diags.Errorf("Dependency lock file changed since the plan was made",
			"The providers selected in .terraform.lock.hcl differ from those the saved plan %s was made with. Make a new plan.", path))
	}
	return ds
}

// changedConfigFiles names the files that differ between two snapshots,
// including files only one of them has.
func changedConfigFiles(saved, current *planfile.ConfigSnapshot) []string {
	seen := map[string]bool{}
	var changed []string
	note := func(name string) {
		if !seen[name] {
			seen[name] = true
			changed = append(changed, name)
		}
	}
	compare := func(a, b *planfile.ConfigSnapshot) {
		for key, mod := range a.Modules {
			other := b.Modules[key]
			for name, content := range mod.Files {
				if other == nil || !bytes.Equal(other.Files[name], content) {
					note(filepathJoin(mod.Dir, name))
				}
			}
			if other == nil && len(mod.Files) == 0 {
				note(mod.Dir)
			}
		}
	}
	compare(saved, current)
	compare(current, saved)
	sort.Strings(changed)
	return changed
}

func filepathJoin(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}
