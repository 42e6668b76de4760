package command

import (
	"context"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
)

// runImport is `terrane import [options] ADDR ID`: it adopts an existing
// remote object into the workspace's records at ADDR, whose resource block
// must already be written, as `tofu import` does.
func runImport(streams views.Streams, args []string) int {
	fs := newFlagSet("import", streams)
	fs.SetOutput(io.Discard)
	var opts arguments.Operation
	var view arguments.View
	fs.Var(importVarFlag{vars: &opts.Vars}, "var", "Set a root module input variable: -var 'name=value' (repeatable)")
	fs.Var(importVarFlag{vars: &opts.Vars, file: true}, "var-file", "Load variable values from a .tfvars file (repeatable)")
	fs.BoolVar(&view.NoColor, "no-color", false, "Disable colour in the output")
	fs.BoolVar(&opts.Input, "input", true, "Accepted for compatibility; Terrane does not prompt for variables here")
	fs.BoolVar(&opts.Lock, "lock", true, "Accepted for compatibility; records are written with compare-and-swap, never locked")
	fs.Duration("lock-timeout", 0, "Accepted for compatibility; records are written with compare-and-swap, never locked")
	fs.IntVar(&opts.Parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of concurrent provider calls")
	err := fs.Parse(args)
	out := views.NewImport(streams, view)
	usage := func(d diags.Diagnostic) int {
		writeLegacyDiagnostics(streams.Stderr, diags.Diagnostics{d}, out.Color())
		printCommandHelp(streams.Stdout, "import")
		return 1
	}
	if err != nil {
		return usage(diags.Errorf("Failed to parse command-line flags", "%s", err))
	}
	if fs.NArg() != 2 {
		return usage(diags.Errorf("Invalid number of arguments", "The import command expects two arguments"))
	}
	addr, d := parseImportAddress(out, fs.Arg(0))
	if d {
		return 1
	}
	op, ds := openOperation(out.Operation, opts, nil, nil)
	if ds.HasErrors() {
		out.Diagnostics(ds)
		return 1
	}
	defer op.Close()
	if importTargetMissing(out, op, addr) {
		return 1
	}
	id := fs.Arg(1)
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

// importVarFlag collects -var and -var-file in command-line order, which
// decides which of them wins.
type importVarFlag struct {
	vars *[]inputvars.VarOption
	file bool
}

func (f importVarFlag) String() string { return "" }
func (f importVarFlag) Set(text string) error {
	if text == "" {
		return fmt.Errorf("a value is required")
	}
	*f.vars = append(*f.vars, inputvars.VarOption{File: f.file, Text: text})
	return nil
}
