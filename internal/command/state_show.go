package command

import (
	"context"
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
)

// runStateShow is `terrane state show ADDR`: one resource instance's
// current and deposed objects as resource blocks, sensitive values hidden.
func runStateShow(streams views.Streams, args []string) int {
	c, fs := parseStateFlags(streams, "state show", args, nil)
	if c == nil {
		return 1
	}
	if fs.NArg() != 1 {
		return c.usageError("state show", diags.Errorf("Invalid number of arguments", "Exactly one argument expected"))
	}
	addr, parseDiags := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if parseDiags.HasErrors() {
		return c.fail(errParsingAddress(fs.Arg(0)))
	}
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	if !stateExists(snap) {
		return c.fail(errStateNotFound())
	}
	res := snap.State.Resource(addr.ContainingResource())
	inst := snap.State.ResourceInstance(addr)
	// An instance with only an open intent is shown, with a warning:
	// Terrane's own case, which a state file cannot hold.
	if inst == nil || (inst.Current == nil && inst.Intent == nil) {
		return c.fail(errNoInstanceFound())
	}
	schemas, schemaDiags := loadSchemas(ctx, ".", map[addrs.Provider]bool{res.ProviderConfig.Provider: true})
	ds := schemaDiags
	if inst.Intent != nil {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Provider call may have happened", Address: addr.String(),
			Detail: fmt.Sprintf("A %s of %s began in run %s and its outcome was never recorded. Import the object if it exists, or run \"terrane state rm %s\" to forget it.",
				inst.Intent.Operation, addr, inst.Intent.RunID, addr)})
	}
	if c.view.JSON() {
		// Only the instance's failure is told: the document is the output.
		if shown := c.view.Instance(res, addr, inst, schemas); shown.HasErrors() {
			return c.fail(shown...)
		}
		return 0
	}
	ds = ds.Append(c.view.Instance(res, addr, inst, schemas))
	ds = ds.Append(c.showComponentChildren(ctx, addr))
	if len(ds) > 0 {
		c.view.Problems(ds)
	}
	if ds.HasErrors() {
		return 1
	}
	return 0
}
