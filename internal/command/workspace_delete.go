package command

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/states/workspaces"
	"github.com/terrane/terrane/internal/workdir"
)

// runWorkspaceDelete is `terrane workspace delete [-force] NAME`. A
// workspace that still tracks objects is kept unless forced, because
// deleting it forgets objects that still exist.
func runWorkspaceDelete(streams views.Streams, args []string) int {
	var force bool
	c, names, code := parseWorkspaceCommand(streams, "delete", args, 1, func(fs *flag.FlagSet) {
		addLockFlags(fs)
		fs.BoolVar(&force, "force", false, "Delete even if the workspace holds resource instances, forgetting them")
	})
	if c == nil {
		return code
	}
	defer c.close()
	name := names[0]
	ctx := context.Background()
	existing, d := c.list(ctx)
	if d != nil {
		return c.fail(*d)
	}
	if !slices.Contains(existing, name) {
		return c.fail(workspaceDoesNotExist(name))
	}
	if name == c.current {
		return c.fail(diags.Errorf(fmt.Sprintf("Workspace %q is your active workspace", name),
			"You cannot delete the currently active workspace. Please switch to another workspace and try again."))
	}
	objects := c.trackedObjects(ctx, name)
	if len(objects) > 0 && !force {
		return c.fail(diags.Errorf("Workspace is not empty",
			"Workspace %q is currently tracking the following resource instances:%s\n\nDeleting this workspace would cause Terrane to lose track of any associated remote objects, which would then require you to delete them manually outside of Terrane. You should destroy these objects with Terrane before deleting the workspace.\n\nIf you want to delete this workspace anyway, and have Terrane forget about these managed objects, use the -force option to disable this safety check.",
			name, "\n  - "+strings.Join(objects, "\n  - ")))
	}
	if name == workdir.DefaultWorkspace {
		return c.fail(diags.Errorf("Workspace deletion failed", "Failed to delete the given workspace: cannot delete default state"))
	}
	if err := workspaces.Delete(ctx, c.service, c.project, name, true); err != nil {
		return c.fail(diags.Errorf("Workspace deletion failed", "Failed to delete the given workspace: %s", err))
	}
	c.view().Deleted(name)
	if len(objects) > 0 {
		c.diagnostics(diags.Warnf(fmt.Sprintf("%q was non-empty", name),
			"The resources managed by the deleted workspace may still exist, but are no longer manageable by Terrane since the state has been deleted."))
	}
	return 0
}

// trackedObjects names the objects a workspace tracks, deposed ones
// marked, as OpenTofu lists them. A workspace whose records cannot be read
// (encrypted with other keys) is named by its records' addresses.
func (c *workspaceCommand) trackedObjects(ctx context.Context, name string) []string {
	snap, err := recordstore.New(c.service, c.project, name).Load(ctx)
	if err != nil {
		var notEmpty *workspaces.NotEmptyError
		// Ask Delete, which reads identities only, without force.
		if derr := workspaces.Delete(ctx, c.service, c.project, name, false); errors.As(derr, &notEmpty) {
			return notEmpty.Instances
		}
		return nil
	}
	var out []string
	entries := snap.State.AllResourceInstances()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Addr.Less(entries[j].Addr) })
	for _, entry := range entries {
		if entry.Addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		if entry.Instance.Current != nil {
			out = append(out, entry.Addr.String())
		}
		for _, key := range entry.Instance.SortedDeposedKeys() {
			out = append(out, fmt.Sprintf("%s (deposed object %s)", entry.Addr, key))
		}
	}
	return out
}

// copyStateInto is workspace new -state. In OpenTofu the option also sets
// the legacy -state path of the command's local backend, so the state is
// read from that file and written back to it, and the new workspace stays
// empty: the file must be a readable state, and nothing else happens.
func (c *workspaceCommand) copyStateInto(_ context.Context, _ string, path string) int {
	src, err := os.ReadFile(path)
	if err != nil {
		return c.fail(diags.Errorf("Error opening the given state", "Failed opening the given state %q: %s", path, err))
	}
	if _, err := statefile.Read(bytes.NewReader(src)); err != nil {
		return c.fail(diags.Errorf("Error reading the given state", "Failed reading the given state %q: %s", path, err))
	}
	return 0
}
