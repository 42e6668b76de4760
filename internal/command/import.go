package command

import (
	"context"
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
)

// runImport is `terrane import [options] ADDR ID`: it adopts an existing
// remote object into the workspace's records at ADDR, whose resource block
// must already be written, as `terraform import` does.
func runImport(streams Streams, args []string) int {
	fs := newFlagSet("import", streams)
	var opts arguments.Operation
	var view arguments.View
	fs.Var(importVarFlag{vars: &opts.Vars}, "var", "Set a root module input variable: -var 'name=value' (repeatable)")
	fs.Var(importVarFlag{vars: &opts.Vars, file: true}, "var-file", "Load variable values from a .tfvars file (repeatable)")
	fs.BoolVar(&view.NoColor, "no-color", false, "Disable colour in the output")
	fs.BoolVar(&opts.Input, "input", true, "Accepted for compatibility; Terrane does not prompt for variables here")
	fs.BoolVar(&opts.Lock, "lock", true, "Accepted for compatibility; records are written with compare-and-swap, never locked")
	fs.IntVar(&opts.Parallelism, "parallelism", engine.DefaultParallelism, "Limit the number of concurrent provider calls")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	out := newOperationOutput(streams, view)
	if fs.NArg() != 2 {
		out.diagnostics(diags.Diagnostics{diags.Errorf("Wrong number of arguments",
			"terrane import takes two arguments, the resource address and the ID of the object to import, such as: terrane import aws_instance.web i-0abc123; got %d.", fs.NArg())})
		return 1
	}
	addr, parseDiags := addrs.ParseAbsResourceInstanceStr(fs.Arg(0))
	if parseDiags.HasErrors() {
		out.diagnostics(diags.Diagnostics{diags.Errorf("Invalid address",
			"%q is not a resource instance address: %s. Give one instance, such as aws_instance.web or module.app.aws_instance.web[\"a\"].", fs.Arg(0), parseDiags[0].Detail)})
		return 1
	}
	id := fs.Arg(1)
	if id == "" {
		out.diagnostics(diags.Diagnostics{diags.Errorf("Invalid import ID", "The import ID for %s is empty; give the ID the provider knows the object by.", addr)})
		return 1
	}
	op, ds := openOperation(out, opts, nil, nil)
	if ds.HasErrors() {
		out.diagnostics(ds)
		return 1
	}
	defer op.close()
	out.say("%s: Importing from ID %q...\n", addr, id)
	type result struct {
		imported *engine.ImportedObject
		diags    diags.Diagnostics
	}
	r, aborted := withInterrupts(out, func(ctx context.Context) result {
		imported, importDiags := op.engine.ImportInstance(ctx, addr, id)
		return result{imported, importDiags}
	})
	if aborted {
		out.diagnostics(ds.Append(abortedDiag()))
		return 1
	}
	imported := r.imported
	ds = ds.Append(r.diags)
	if imported != nil {
		typeName := addr.Resource.Resource.Type
		out.say("%s: Import prepared!\n  Prepared %s for import\n%s: Refreshing state... [id=%s]\n", addr, typeName, addr, id)
		out.say("\nImport successful!\n\nThe resources that were imported are shown above. These resources are now in\nyour Terrane state and will henceforth be managed by Terrane.\n\n")
	}
	out.diagnostics(ds)
	if ds.HasErrors() {
		return 1
	}
	return 0
}

// importVarFlag collects -var and -var-file in command-line order, which
// decides which of them wins.
type importVarFlag struct {
	vars *[]arguments.VarOption
	file bool
}

func (f importVarFlag) String() string { return "" }
func (f importVarFlag) Set(text string) error {
	if text == "" {
		return fmt.Errorf("a value is required")
	}
	*f.vars = append(*f.vars, arguments.VarOption{File: f.file, Text: text})
	return nil
}
