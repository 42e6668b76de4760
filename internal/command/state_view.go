package command

import (
	"context"
	"fmt"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/version"
)

// stateExists reports whether the workspace has a state, as a state file
// exists in OpenTofu once a command has written one: an apply, a state
// command that changed something, a push. A workspace that was only
// created (by init or workspace new) has none yet.
func stateExists(snap *recordstore.Snapshot) bool {
	return snap.Workspace != nil && snap.Workspace.Serial > 0
}

// errStateNotFound is OpenTofu's error for a state command run where no
// state was ever written.
func errStateNotFound() diags.Diagnostic {
	return diags.Errorf("No state file was found",
		"State management commands require a state file. Run this command in a directory where Terrane has been run or use the -state flag to point the command to a specific state location.")
}

// errNoInstanceFound is OpenTofu's error for an address that does not name
// one instance in the state.
func errNoInstanceFound() diags.Diagnostic {
	return diags.Errorf("No instance found for the given address",
		`This command requires that the address references one specific instance. To view the available instances, use "terrane state list". Please modify the address to reference a specific instance.`)
}

// errParsingAddress is OpenTofu's error for an address state show cannot
// read.
func errParsingAddress(text string) diags.Diagnostic {
	return diags.Errorf(fmt.Sprintf("Error parsing instance address %q", text),
		`This command requires that the address references one specific instance. To view the available instances, use "terrane state list". Please modify the address to reference a specific instance.`)
}

// commitEdit writes a state command's changes and, as OpenTofu's persisting
// of a changed state does, moves the workspace to its next serial.
func (c *stateCommand) commitEdit(ctx context.Context, changes []recordstore.InstanceChange) *diags.Diagnostic {
	if d := c.commit(ctx, changes); d != nil {
		return d
	}
	if _, err := c.store.BeginRun(ctx, version.Version); err != nil {
		d := commitFailure(err, c.workspace)
		return &d
	}
	return nil
}
