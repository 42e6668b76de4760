package command

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/states/errored"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/stateedit"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/storeconfig"
	"github.com/terrane/terrane/internal/version"
	"github.com/terrane/terrane/internal/workdir"
)

// runStatePush is `terrane state push [-force] FILE`: a Terraform or
// OpenTofu state v4 file ("-" for stdin) becomes the workspace's state.
// The instances change in one commit; then the outputs and the workspace's
// lineage and serial follow.
func runStatePush(streams views.Streams, args []string) int {
	var force *bool
	c, fs := parseStateFlags(streams, "state push", args, func(fs *flag.FlagSet) {
		force = fs.Bool("force", false, "Push even if the lineage differs or the serial is lower")
		addLockFlags(fs)
	})
	if c == nil {
		return 1
	}
	if fs.NArg() != 1 {
		return c.usageError("state push", diags.Errorf("Invalid number of arguments", "Exactly one argument expected"))
	}
	if c.versionRefused() {
		return 1
	}
	ctx := context.Background()
	// The file is read (and decrypted) before the store is opened, so a
	// file that cannot be read leaves even a new workspace unmade.
	if d := c.checkProviders(); d != nil {
		return c.fail(*d)
	}
	if d := c.prepareCipher(); d != nil {
		return c.fail(*d)
	}
	file, d := readPushedState(ctx, streams, fs.Arg(0), c.cipher.Target())
	if d != nil {
		return c.fail(*d)
	}
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	if file.Unrecorded != nil {
		return c.pushUnrecorded(ctx, snap, file, fs.Arg(0), *force)
	}
	if err := stateedit.PushCheck(snap, file); err != nil && !*force {
		return c.fail(diags.Errorf("Failed to write the imported state", "%s", err))
	}
	if d := c.backupBeforePush(ctx, snap); d != nil {
		return c.fail(*d)
	}
	// OpenTofu persists a pushed state twice over the one it read, each
	// time moving the file's serial on when the content differs.
	serial := int64(file.Serial)
	if !stateExists(snap) || !stateedit.SameState(snap.State, file.State) {
		serial += 2
	}
	if _, ds := takeInState(ctx, c.store, c.workspace, snap, file, serial); ds.HasErrors() {
		return c.fail(ds...)
	}
	return 0
}

// takeInState makes a workspace's state the file's: its instances in one
// commit, then its outputs, then the workspace's lineage, serial and the
// serial taken in; serial is the workspace's new serial, which it returns.
func takeInState(ctx context.Context, st *recordstore.Store, workspace string, snap *recordstore.Snapshot, file *statefile.File, serial int64) (int64, diags.Diagnostics) {
	changes, err := stateedit.PlanPush(snap, file.State)
	if err != nil {
		return 0, diags.Diagnostics{diags.Errorf("Invalid state file", "%s.", diags.Capitalize(err.Error()))}
	}
	// The instances' records are owned by the workspace record, which a
	// workspace taken in for the first time does not have yet.
	if _, err := st.EnsureWorkspace(ctx); err != nil {
		return 0, diags.Diagnostics{diags.Errorf("Failed to write the state", "Creating workspace %q: %s. Nothing was changed.", workspace, err)}
	}
	if _, err := st.Commit(ctx, changes); err != nil {
		return 0, diags.Diagnostics{commitFailure(err, workspace)}
	}
	if err := st.WriteOutputs(ctx, file.State.Outputs); err != nil {
		return 0, diags.Diagnostics{diags.Errorf("Failed to write outputs", "The resource instances were written, but writing the outputs of workspace %q failed: %s. Run the command again to finish.", workspace, err)}
	}
	if _, err := st.SetWorkspaceMetadata(ctx, file.Lineage, serial, int64(file.Serial), file.State.CheckResultsJSON); err != nil {
		return 0, diags.Diagnostics{diags.Errorf("Failed to write workspace metadata", "The resource instances and outputs were written, but recording lineage %q of workspace %q failed: %s. Run the command again to finish.", file.Lineage, workspace, err)}
	}
	return serial, nil
}

// readPushedState reads a state file to push. A file OpenTofu encrypted is
// decrypted with the state target, which holds the configuration it was
// written with; a plain file is read as it is, as OpenTofu's state push
// reads it.
func readPushedState(ctx context.Context, streams views.Streams, path string, target *encryption.Target) (*statefile.File, *diags.Diagnostic) {
	var stored []byte
	var err error
	if path == "-" {
		stored, err = io.ReadAll(streams.Stdin)
	} else {
		stored, err = os.ReadFile(path)
	}
	if err != nil {
		d := diags.Errorf("Failed to open the given state file", "%s", err)
		return nil, &d
	}
	plain, err := encryption.DecryptStateFile(ctx, target, stored, true)
	if err != nil {
		d := diags.Errorf("Cannot decrypt state file", "%s: %s.", pushSourceName(path), err)
		return nil, &d
	}
	file, err := statefile.Read(bytes.NewReader(plain))
	if err != nil {
		d := diags.Errorf(fmt.Sprintf("Failed to read source state %q", path), "%s", err)
		return nil, &d
	}
	return file, nil
}

func pushSourceName(path string) string {
	if path == "-" {
		return "the state on stdin"
	}
	return path
}

// stateAddressList names a few addresses for a diagnostic.
func stateAddressList(list []addrs.AbsResourceInstance) string {
	return stateedit.AddressList(list)
}

// pushUnrecorded takes the results a run could not record (errored.tfstate)
// into the workspace's records: each replaces the intent its run left, and
// nothing else in the workspace changes. A record changed otherwise since is
// refused, naming it, unless -force.
func (c *stateCommand) pushUnrecorded(ctx context.Context, snap *recordstore.Snapshot, file *statefile.File, path string, force bool) int {
	results, err := errored.FromStateFile(pushSourceName(path), file)
	if err != nil {
		return c.fail(diags.Errorf("Invalid state file", "%s.", err))
	}
	if results.Workspace != c.workspace && !force {
		return c.fail(diags.Errorf("Refusing to push state",
			"%s holds results of workspace %q, not of the current workspace %q. Select that workspace with \"terrane workspace select %s\" and push again, or use -force.",
			pushSourceName(path), results.Workspace, c.workspace, results.Workspace))
	}
	comparison := results.Compare(snap)
	if len(comparison.Changed) > 0 && !force {
		return c.fail(diags.Errorf("Refusing to push state",
			"These records changed after the run that wrote %s, by another run or by hand, so its results would overwrite that:\n%s\n\nCompare them with \"terrane state show\"; use -force to record the file's results anyway.",
			pushSourceName(path), errored.Describe(comparison.Changed)))
	}
	changes, taken := results.Merge(snap, force)
	if d := c.backupBeforePush(ctx, snap); d != nil {
		return c.fail(*d)
	}
	if d := c.commit(ctx, changes); d != nil {
		return c.fail(*d)
	}
	fmt.Fprintf(c.streams.Stdout, "Recorded %d result(s) from %s in workspace %q:\n%s\n", len(taken), pushSourceName(path), c.workspace, errored.Describe(taken))
	if n := len(comparison.Recorded); n > 0 {
		fmt.Fprintf(c.streams.Stdout, "%d result(s) were recorded already.\n", n)
	}
	return 0
}

// backupBeforePush copies the store aside, so that a push, which replaces
// records wholesale, can be undone by putting the copy back. An embedded
// store is copied whole; a shared one (etcd, serve) cannot be, so the
// workspace's state as it is now is written beside the configuration as a
// state file instead (open intents, which that format cannot hold, aside).
func (c *stateCommand) backupBeforePush(ctx context.Context, snap *recordstore.Snapshot) *diags.Diagnostic {
	settings, ds := workdir.StoreSettings(".")
	if ds.HasErrors() {
		d := firstError(ds)
		return &d
	}
	var backup string
	var err error
	if settings.Kind() == storeconfig.Embedded {
		backup, err = workdir.BackupStore(ctx, settings.AbsPath("."), "before-push")
	} else {
		backup, err = backupWorkspaceState(ctx, c.workspace, snap, c.cipher.Target())
	}
	if err != nil {
		d := diags.Errorf("Cannot back up the state store",
			"Before pushing, Terrane copies the store so that the push can be undone, and copying it failed: %s. Nothing was pushed.\n\n%s",
			err, workdir.StoreRecoveryAdvice(settings.AbsPath("."), err))
		return &d
	}
	_ = backup // written silently, as OpenTofu writes its backup file
	return nil
}

// backupWorkspaceState writes the workspace's state as a state v4 file in
// the default backups directory and returns its path. With state
// encryption the file is encrypted with the state target, as OpenTofu
// writes its backups, so the copy leaks nothing the store keeps sealed.
func backupWorkspaceState(ctx context.Context, workspace string, snap *recordstore.Snapshot, target *encryption.Target) (string, error) {
	lineage, serial := "", uint64(0)
	if snap.Workspace != nil {
		lineage, serial = snap.Workspace.Lineage, uint64(max(snap.Workspace.Serial, 0))
	}
	var buf bytes.Buffer
	if err := statefile.Write(&statefile.File{TerraformVersion: version.Version, Serial: serial, Lineage: lineage, State: snap.State}, &buf); err != nil {
		return "", err
	}
	data, err := encryption.EncryptStateFile(ctx, target, buf.Bytes())
	if err != nil {
		return "", err
	}
	dir := workdir.BackupsDir(".")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%s-before-push.tfstate", workspace, time.Now().UTC().Format("20060102T150405.000Z")))
	return path, os.WriteFile(path, data, 0o600)
}
