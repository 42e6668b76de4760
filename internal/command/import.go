package command

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/ui"
)

// runImport is `terrane import [options] ADDR ID`: it adopts an existing
// remote object into the workspace's records at ADDR, whose resource block
// must already be written, as `tofu import` does.
func runImport(streams Streams, args []string) int {
	opts, argDiags := arguments.ParseImport(args)
	out := newOperationOutput(streams, opts.View)
	if argDiags.HasErrors() {
		return usageFailure(streams.Stderr, argDiags, out.color)
	}
	addr, d := parseImportAddress(out, opts.Addr)
	if d {
		return 1
	}
	op, ds := openOperation(out, opts.Operation, nil, nil)
	if ds.HasErrors() {
		out.legacyDiagnostics(ds)
		return 1
	}
	defer op.Close()
	if importTargetMissing(out, op, addr) {
		return 1
	}
	id := opts.ID
	type result struct {
		imported *engine.ImportedObject
		diags    diags.Diagnostics
	}
	r, aborted := withInterrupts(out, func(ctx context.Context) result {
		imported, importDiags := op.Engine.ImportInstance(ctx, addr, id)
		return result{imported, importDiags}
	})
	if aborted {
		out.legacyDiagnostics(ds.Append(abortedDiag()))
		return 1
	}
	if ds = ds.Append(r.diags); ds.HasErrors() {
		out.legacyDiagnostics(ds)
		return 1
	}
	fmt.Fprintln(streams.Stdout, ui.Colorize("\n[reset][green]Import successful!\n\n"+
		"The resources that were imported are shown above. These resources are now in\n"+
		"your Terrane state and will henceforth be managed by Terrane.\n", out.color))
	out.legacyDiagnostics(ds)
	return 0
}

// parseImportAddress reads the address to import to, reporting a bad one
// as OpenTofu does (with the argument as its source) and returning true.
func parseImportAddress(out *operationOutput, text string) (addrs.AbsResourceInstance, bool) {
	const filename = "<import-address>"
	traversal, hclDiags := hclsyntax.ParseTraversalAbs([]byte(text), filename, hcl.Pos{Line: 1, Column: 1})
	var addr addrs.AbsResourceInstance
	if !hclDiags.HasErrors() {
		var more hcl.Diagnostics
		addr, more = addrs.ParseAbsResourceInstance(traversal)
		hclDiags = append(hclDiags, more...)
	}
	if hclDiags.HasErrors() {
		if file, _ := hclsyntax.ParseConfig([]byte(text), filename, hcl.Pos{Line: 1, Column: 1}); file != nil {
			file.Bytes = []byte(text)
			out.sources[filename] = file
		} else {
			out.sources[filename] = &hcl.File{Bytes: []byte(text)}
		}
		out.legacyDiagnostics(diags.Diagnostics{}.Append(hclDiags))
		fmt.Fprintln(out.streams.Stdout, "For information on valid syntax, see:\nhttps://opentofu.org/docs/cli/state/resource-addressing/")
		return addr, true
	}
	if mode := addr.Resource.Resource.Mode; mode != addrs.ManagedResourceMode {
		what := "a data resource"
		if mode == addrs.EphemeralResourceMode {
			what = "an ephemeral resource"
		}
		out.legacyDiagnostics(diags.Diagnostics{diags.Errorf("Invalid target resource address",
			"A managed resource address is required. Importing into %s is not allowed.", what)})
		return addr, true
	}
	return addr, false
}

// importTargetMissing reports, as OpenTofu does, an import into a module
// or a resource the configuration does not have, and returns true.
func importTargetMissing(out *operationOutput, op *operation, addr addrs.AbsResourceInstance) bool {
	module := op.Config.Descendant(addr.Module.Module())
	if module == nil {
		out.legacyDiagnostics(diags.Diagnostics{diags.Errorf("Import to non-existent module",
			"%s is not defined in the configuration. Please add configuration for this module before importing into it.", addr.Module)})
		return true
	}
	res := addr.Resource.Resource
	if module.Module.Resources[res] != nil {
		return false
	}
	where := addr.Module.String()
	if where == "" {
		where = "the root module"
	}
	// Not a diagnostic in OpenTofu either: its detail holds an example.
	text := fmt.Sprintf("[reset][bold][red]Error:[reset][bold] resource address %q does not exist in the configuration.[reset]\n\n"+
		"Before importing this resource, please create its configuration in %s. For example:\n\n"+
		"resource %q %q {\n  # (resource arguments)\n}\n", addr, where, res.Type, res.Name)
	fmt.Fprintln(out.streams.Stderr, ui.Colorize(text, out.color))
	return true
}

// legacyDiagnostics writes diagnostics as OpenTofu's import and state
// commands do: warnings on stdout, errors on stderr, each followed by an
// empty line.
func (o *operationOutput) legacyDiagnostics(ds diags.Diagnostics) {
	for _, d := range ui.SortDiagnostics(ds) {
		w := o.streams.Stderr
		if d.Severity == diags.Warning {
			w = o.streams.Stdout
		}
		ui.WriteDiagnostic(w, d, o.sources, o.color)
		fmt.Fprintln(w)
	}
}
