package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/jsonvalidate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/validate"
	"github.com/terrane/terrane/internal/workdir"
)

// validateParallelism bounds how many blocks are checked at once; the
// provider calls are cheap but each holds a gRPC stream.
const validateParallelism = 10

// runValidate is `terrane validate`: it loads the configuration in the
// working directory, applies the language's static checks, then decodes
// every provider, resource and data block against its provider's schema
// (with unknown values for whatever is only known during a run) and asks
// the provider to validate the result.
func runValidate(streams Streams, args []string) int {
	opts, argDiags := arguments.ParseValidate(args)
	color := !opts.NoColor && !opts.JSON
	if argDiags.HasErrors() {
		ui.WriteDiagnostics(streams.Stderr, argDiags, nil, color)
		if !opts.JSON {
			fmt.Fprint(streams.Stderr, "\nFor more help on using this command, run:\n  terrane validate -help\n")
		}
		return 1
	}

	parser := config.NewParser()
	parser.Static = run.StaticInputs(".", opts.Vars, os.Environ())
	cfg, loadDiags := modules.LoadConfig(parser, ".")
	ds := diags.Diagnostics{}.Append(loadDiags)
	if cfg != nil && !ds.HasErrors() {
		// As OpenTofu's validate, which needs the providers' schemas:
		// each provider the lock file selects that is not installed is
		// an error of its own, and nothing is validated.
		for _, missing := range workdir.MissingProviders(".") {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: missing})
		}
		if !ds.HasErrors() {
			ds = ds.Append(validateConfig(context.Background(), cfg))
		}
	}
	sources := ui.Sources(parser.Files())
	if opts.JSON {
		return writeValidateJSON(streams.Stdout, ds, sources)
	}
	view := diagnosticView(streams, opts.View, color)
	return writeValidateHuman(streams, view, ds, sources)
}

func writeValidateJSON(w io.Writer, ds diags.Diagnostics, sources ui.Sources) int {
	doc := jsonvalidate.New(ds, sources)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		fmt.Fprintf(w, "Error: cannot encode the validation result: %s\n", err)
		return 1
	}
	fmt.Fprintln(w, string(out))
	if !doc.Valid {
		return 1
	}
	return 0
}

// writeValidateHuman prints the diagnostics as the view says, then the
// verdict, as OpenTofu's views.ValidateHuman does.
func writeValidateHuman(streams Streams, view ui.DiagnosticView, ds diags.Diagnostics, sources ui.Sources) int {
	view.Write(streams.Stdout, streams.Stderr, ds, sources)
	if ds.HasErrors() {
		return 1
	}
	// One line, colour included, wrapped to the output's width.
	success := "Success!"
	if view.Color {
		success = "\x1b[32m\x1b[1mSuccess!\x1b[0m"
	}
	msg := success + " The configuration is valid."
	if len(ds) > 0 {
		msg = success + " The configuration is valid, but there were some validation warnings as shown above."
	}
	fmt.Fprintln(streams.Stdout, ui.WordWrap(msg, ui.Width(streams.Stdout)))
	return 0
}

// validateConfig checks every module of the tree, with the providers it
// uses; those that are not installed are errors, as in OpenTofu.
func validateConfig(ctx context.Context, cfg *config.Config) diags.Diagnostics {
	running, ds := startValidationProviders(ctx, cfg)
	defer running.close()
	if ds.HasErrors() {
		return ds
	}
	return ds.Append(validate.Config(ctx, cfg, running.providers))
}
