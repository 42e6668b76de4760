package command

import (
	"bytes"
	"context"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/version"
)

// runStatePull is `terrane state pull`: the workspace's whole state as a
// Terraform state v4 document on stdout, with the workspace's lineage and
// serial, for Terraform, OpenTofu and the tools built around their files.
func runStatePull(streams views.Streams, args []string) int {
	// The state is written decrypted, as OpenTofu's state pull writes it
	// whatever the encryption configuration: stdout is not at rest.
	c, fs := parseStateFlags(streams, "state pull", args, nil)
	if c == nil {
		return 1
	}
	if fs.NArg() > 0 {
		return c.usageError("state pull", diags.Errorf("Unexpected argument", "Too many command line arguments. Did you mean to use -chdir?"))
	}
	if c.versionRefused() {
		return 1
	}
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	if !stateExists(snap) {
		return 0 // OpenTofu prints nothing where no state was written
	}
	// A state file cannot say "this create may have happened": written
	// out, the instance would look absent and the next run by any tool
	// would create a second object.
	if open := statefile.OpenIntents(snap.State); len(open) > 0 {
		return c.fail(diags.Errorf("Unresolved provider calls",
			"Workspace %q has open intents on %s: provider calls that began and whose outcome was never recorded. A state file cannot express them, so an exported state would silently lose those objects. Run \"terrane plan\" to resolve updates and deletes; for a create, import the object if it exists or forget it with \"terrane state rm ADDR\", then pull again.",
			c.workspace, stateAddressList(open)))
	}
	if (snap.Workspace == nil || snap.Workspace.Serial <= 0) && len(snap.State.AllResourceInstances()) == 0 && len(snap.State.Outputs) == 0 {
		// No apply ever ran here: OpenTofu has no state file to print, and
		// prints nothing.
		return 0
	}
	file := &statefile.File{TerraformVersion: version.OpenTofuVersion, State: snap.State}
	if snap.Workspace != nil {
		file.Lineage = snap.Workspace.Lineage
		file.Serial = uint64(max(snap.Workspace.Serial, 0))
	}
	var out bytes.Buffer
	if err := statefile.Write(file, &out); err != nil {
		return c.fail(diags.Errorf("Failed to write the state", "Encoding workspace %q as a state file: %s.", c.workspace, err))
	}
	// OpenTofu prints the file, newline included, as a line of its own, so
	// the document is followed by an empty line.
	if _, err := streams.Stdout.Write(append(out.Bytes(), '\n')); err != nil {
		return c.fail(diags.Errorf("Failed to write the state", "Writing to stdout: %s.", err))
	}
	return 0
}
