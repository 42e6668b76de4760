package command

import (
	"context"
	"fmt"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/pbresource"
)

// runStateReencrypt is `terrane state reencrypt`: every record of the
// workspace not written with the state target's primary method and current
// keys is written again with them — after a key rotation or a method
// change (read through a fallback), or to migrate to or from encryption.
// Records are re-encrypted as they are written anyway; this finishes the
// job for those no run writes. Every record is decrypted before any is
// written, so one that cannot be read leaves all of them as they were.
func runStateReencrypt(streams views.Streams, args []string) int {
	c, fs := parseStateFlags(streams, "state reencrypt", args, nil)
	if c == nil {
		return 1
	}
	if fs.NArg() > 0 {
		return c.fail(diags.Errorf("Unexpected argument", "terrane state reencrypt takes no arguments; it rewrites the current workspace's records."))
	}
	if d := c.open(); d != nil {
		return c.fail(*d)
	}
	c.close()
	project, err := workdir.Project()
	if err != nil {
		return c.fail(diags.Errorf("Invalid project", "%s.", err))
	}
	settings, ds := workdir.StoreSettings(".")
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	raw, ds := workdir.OpenBackend(".", settings)
	if ds.HasErrors() {
		return c.fail(ds...)
	}
	backend := encrypted.New(raw, c.cipher)
	defer backend.Close()
	ctx := context.Background()
	tenancy := records.Tenancy(project, c.workspace)
	var total encrypted.RewriteResult
	for _, resType := range []*pbresource.Type{records.WorkspaceType, records.ResourceInstanceType, records.OutputType, records.ComponentChildType} {
		result, err := backend.Rewrite(ctx, resType, tenancy)
		total.Rewritten += result.Rewritten
		total.Current += result.Current
		total.Changed += result.Changed
		if err != nil {
			return c.fail(diags.Errorf("Failed to re-encrypt the state",
				"%s. %d record(s) of workspace %q were rewritten before this; the rest are as they were. Fix the encryption configuration (a fallback for the keys the record was written with) and run the command again.",
				err, total.Rewritten, c.workspace))
		}
	}
	// The store may still hold the records' earlier forms (plain, or
	// under retired keys): its history and free pages.
	if compacter, ok := backend.Inner().(interface{ Compact(context.Context) error }); ok {
		if err := compacter.Compact(ctx); err != nil {
			return c.fail(diags.Errorf("Failed to discard earlier record values",
				"Every record was rewritten, but the store still holds their earlier forms: %s.", err))
		}
	}
	how := "in plain form (the primary method is unencrypted)"
	if target := c.cipher.Target(); !target.WritesPlain() {
		how = "with " + target.PrimaryMethod()
	}
	fmt.Fprintf(streams.Stdout, "Rewrote %d record(s) of workspace %q %s; %d already were.\n", total.Rewritten, c.workspace, how, total.Current)
	if total.Changed > 0 {
		fmt.Fprintf(streams.Stdout, "%d record(s) changed while this ran and were left as their writer wrote them; run the command again to check them.\n", total.Changed)
	}
	return 0
}
