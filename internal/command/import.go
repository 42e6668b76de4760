package command

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
)

// runImport is `terrane import [options] ADDR ID`: it adopts an existing
// remote object into the workspace's records at ADDR, whose resource block
// must already be written, as `tofu import` does.
func runImport(streams views.Streams, args []string) int {
	opts, argDiags := arguments.ParseImport(args)
	out := views.NewImport(streams, opts.View)
	if argDiags.HasErrors() {
		return usageFailure(streams.Stderr, argDiags, out.Color())
	}
	addr, d := parseImportAddress(out, opts.Addr)
	if d {
		return 1
	}
	op, ds := openOperation(out.Operation, opts.Operation, nil, nil)
	if ds.HasErrors() {
		out.Diagnostics(ds)
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
	r, aborted := withInterrupts(out.Operation, func(ctx context.Context) result {
		imported, importDiags := op.Engine.ImportInstance(ctx, addr, id)
		return result{imported, importDiags}
	})
	if aborted {
		out.Diagnostics(ds.Append(abortedDiag()))
		return 1
	}
	if ds = ds.Append(r.diags); ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	out.Succeeded()
	out.Diagnostics(ds)
	return 0
}

// parseImportAddress reads the address to import to, reporting a bad one
// as OpenTofu does (with the argument as its source) and returning true.
func parseImportAddress(out *views.Import, text string) (addrs.AbsResourceInstance, bool) {
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
			out.AddSources(map[string]*hcl.File{filename: file})
		} else {
			out.AddSources(map[string]*hcl.File{filename: {Bytes: []byte(text)}})
		}
		out.Diagnostics(diags.Diagnostics{}.Append(hclDiags))
		out.AddressSyntaxHelp()
		return addr, true
	}
	if mode := addr.Resource.Resource.Mode; mode != addrs.ManagedResourceMode {
		what := "a data resource"
		if mode == addrs.EphemeralResourceMode {
			what = "an ephemeral resource"
		}
		out.Diagnostics(diags.Diagnostics{diags.Errorf("Invalid target resource address",
			"A managed resource address is required. Importing into %s is not allowed.", what)})
		return addr, true
	}
	return addr, false
}

// importTargetMissing reports, as OpenTofu does, an import into a module
// or a resource the configuration does not have, and returns true.
func importTargetMissing(out *views.Import, op *operation, addr addrs.AbsResourceInstance) bool {
	module := op.Config.Descendant(addr.Module.Module())
	if module == nil {
		out.Diagnostics(diags.Diagnostics{diags.Errorf("Import to non-existent module",
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
	out.TargetMissing(addr, where)
	return true
}
