package command

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/workspaces"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/storeconfig"
	"github.com/terrane/terrane/internal/workdir"
)

// takesStateFrom reports whether init handles a backend type itself:
// Terrane's own, which names its store, and the two whose state it can
// read and take in.
func takesStateFrom(backendType string) bool {
	switch backendType {
	case storeconfig.BackendType, "local", "http":
		return true
	}
	return false
}

// backendChanged is OpenTofu's answer to a changed backend without
// -migrate-state or -reconfigure.
func backendChanged(previous, next storeconfig.Settings) diags.Diagnostic {
	return diags.Errorf("Backend configuration changed",
		"A change in the backend configuration has been detected, which may require migrating existing state: "+
			"this working directory used %s, and the configuration now names %s.\n\n"+
			"If you wish to attempt automatic migration of the state, use \"terrane init -migrate-state\".\n"+
			"If you wish to store the current configuration with no changes to the state, use \"terrane init -reconfigure\".",
		previous.Describe(), next.Describe())
}

// initBackend chooses the state store, copies state into it where asked,
// records the choice in .terrane/backend.json, prepares the current
// workspace, and offers to take in state Terraform or OpenTofu kept.
func (in *initializer) initBackend(ctx context.Context, root *config.Module) diags.Diagnostics {
	choice, ds := storeconfig.ForInit(".", root.Backend, in.opts.BackendConfig, os.Environ())
	if ds.HasErrors() {
		return ds
	}
	project, workspace, d := currentProjectAndWorkspace()
	if d != nil {
		return ds.Append(*d)
	}
	changed := choice.Changed(".")
	if changed && choice.Recorded && !in.opts.MigrateState && !in.opts.Reconfigure {
		return ds.Append(backendChanged(choice.Previous, choice.New))
	}
	target, more := workdir.OpenBackend(".", choice.New)
	ds = ds.Append(more)
	if ds.HasErrors() {
		return ds
	}
	defer target.Close()
	if changed && !in.opts.Reconfigure {
		ds = ds.Append(in.migrateStore(ctx, choice, target, project))
		if ds.HasErrors() {
			return ds
		}
	}
	// Records this init writes — the workspace's, and state taken in from
	// Terraform or OpenTofu — pass through the state encryption; records
	// copied between stores above stay as they were stored.
	enc, encDiags := run.LoadEncryption(".", root, in.opts.Vars, nil, os.Environ())
	if ds = ds.Append(encDiags); ds.HasErrors() {
		return ds
	}
	service, err := serviceOver(encrypted.New(target, encryption.NewRecordCipher(enc.State())))
	if err != nil {
		return ds.Append(err)
	}
	workspaceStore := recordstore.New(service, project, workspace)
	if _, err := workspaceStore.EnsureWorkspace(ctx); err != nil {
		if d, ok := encryption.Diagnostic(err); ok {
			return ds.Append(d)
		}
		return ds.Append(diags.Errorf("Cannot prepare the state store",
			"Preparing workspace %q of project %q in %s: %s. Check that the store is reachable and that its credentials allow writing there.",
			workspace, project, choice.New.Describe(), err))
	}
	// The providers of objects in the state are needed too: to destroy
	// what the configuration no longer has.
	if snap, err := workspaceStore.Load(ctx); err == nil {
		for _, res := range snap.State.SortedResources() {
			in.stateProviders = append(in.stateProviders, res.ProviderConfig.Provider)
		}
	}
	if err := storeconfig.WriteRecord(".", &choice.Record); err != nil {
		return ds.Append(diags.Errorf("Cannot record the backend", "%s. Check that %s can be written to.", diags.Capitalize(err.Error()), workdir.DataDir(".")))
	}
	// OpenTofu says nothing of the default local state; Terrane says which
	// store and workspace it uses only when they are not the defaults.
	if project != workdir.DefaultProject || choice.New.Identity(".") != (storeconfig.Settings{}).Identity(".") {
		in.view.Progress("Using workspace %q of project %q in %s", workspace, project, choice.New.Describe())
	}
	if changed || !choice.Recorded && root.Backend != nil && root.Backend.Type == storeconfig.BackendType {
		in.view.BackendSet(storeconfig.BackendType)
	}
	return ds.Append(in.moveIn(ctx, root, service, project, enc))
}

func currentProjectAndWorkspace() (project, workspace string, d *diags.Diagnostic) {
	project, err := workdir.Project()
	if err != nil {
		diag := diags.Errorf("Invalid project", "%s.", err)
		return "", "", &diag
	}
	workspace, err = workdir.CurrentWorkspace(".")
	if err != nil {
		diag := run.CurrentWorkspaceError(err)
		return "", "", &diag
	}
	return project, workspace, nil
}

func serviceOver(backend store.Backend) (*resourceservice.Service, error) {
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		return nil, err
	}
	return resourceservice.New(backend, registry), nil
}

// migrateStore copies the project's state from the store used so far into
// the newly configured one. As OpenTofu does, it asks before copying into
// an empty store (-force-copy answers yes) and never copies an empty state;
// it refuses to replace state the new store already holds for a workspace
// unless -force-copy says to.
func (in *initializer) migrateStore(ctx context.Context, choice storeconfig.InitChoice, target store.Backend, project string) diags.Diagnostics {
	if choice.Previous.Kind() == storeconfig.Embedded {
		if _, err := os.Stat(choice.Previous.AbsPath(".")); errors.Is(err, fs.ErrNotExist) {
			return nil // nothing was ever stored there; opening it would create it
		}
	}
	source, ds := workdir.OpenBackend(".", choice.Previous)
	if ds.HasErrors() {
		return ds
	}
	defer source.Close()
	from, err := workspaces.ReadProject(ctx, source, project)
	if err != nil {
		return ds.Append(migrationFailure(choice, err))
	}
	names := from.Workspaces()
	if len(names) == 0 {
		return ds
	}
	to, err := workspaces.ReadProject(ctx, target, project)
	if err != nil {
		return ds.Append(migrationFailure(choice, err))
	}
	var occupied []string
	for _, name := range to.Workspaces() {
		if from[name] != nil {
			occupied = append(occupied, name)
		}
	}
	switch {
	case len(occupied) > 0 && !in.opts.ForceCopy:
		return ds.Append(diags.Errorf("The new store already holds state",
			"%s already holds state for workspace(s) %s of project %q, which copying the state from %s would replace. Nothing was copied.\n\n"+
				"To replace it with the state copied from %s, run terrane init -migrate-state -force-copy. To use the new store's state as it is, run terrane init -reconfigure.",
			choice.New.Describe(), quoteList(occupied), project, choice.Previous.Describe(), choice.Previous.Describe()))
	case !in.opts.ForceCopy:
		copyIt, d := in.ask("Do you want to copy existing state to the new backend?", fmt.Sprintf(
			"Pre-existing state was found while migrating from %s to %s: workspace(s) %s of project %q. "+
				"No existing state was found in the new store. Do you want to copy this state there? "+
				"Enter \"yes\" to copy and \"no\" to start with an empty state.",
			choice.Previous.Describe(), choice.New.Describe(), quoteList(names), project))
		if d != nil {
			return ds.Append(*d)
		}
		if !copyIt {
			return ds
		}
	}
	in.view.Line(fmt.Sprintf("Copying the state of project %q from %s to %s...", project, choice.Previous.Describe(), choice.New.Describe()))
	for _, name := range names {
		if err := workspaces.CopyWorkspace(ctx, target, project, name, from[name], to[name]); err != nil {
			return ds.Append(migrationFailure(choice, err))
		}
		in.view.Progress("Copied workspace %q: %d records", name, len(from[name]))
	}
	in.view.Line(fmt.Sprintf("The state in %s is left as it was.", choice.Previous.Describe()))
	return ds
}

func migrationFailure(choice storeconfig.InitChoice, err error) diags.Diagnostic {
	return diags.Errorf("Error copying state",
		"Copying state from %s to %s: %s.\n\nThe state in %s is unchanged. Resolve the error and run terrane init -migrate-state again: workspaces already copied are copied again.",
		choice.Previous.Describe(), choice.New.Describe(), err, choice.Previous.Describe())
}

// ask puts a yes/no question, as OpenTofu's confirmations do, or fails
// when -input=false forbids asking.
func (in *initializer) ask(question, detail string) (bool, *diags.Diagnostic) {
	if !in.opts.Input {
		d := diags.Errorf("Can't ask approval for state migration when interactive input is disabled",
			"%s\n\nIf non-interactive operation is desired, add the \"-force-copy\" option. Otherwise, remove the \"-input=false\" option and try again.", detail)
		return false, &d
	}
	return views.Confirm(views.Streams{Stdin: in.stdin, Stdout: in.stdout}, question, detail), nil
}

func quoteList(names []string) string {
	quoted := make([]string, len(names))
	for i, name := range names {
		quoted[i] = fmt.Sprintf("%q", name)
	}
	return strings.Join(quoted, ", ")
}
