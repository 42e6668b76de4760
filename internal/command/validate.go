package command

import (
	"context"
	"os"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
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
func runValidate(streams views.Streams, args []string) int {
	fs := newFlagSet("validate", streams)
	asJSON := fs.Bool("json", false, "Print the result as a machine-readable JSON document")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	compact := fs.Bool("compact-warnings", false, "Show warnings in a compact form")
	var vars []inputvars.VarOption
	arguments.AddVarFlags(fs, &vars)
	err := fs.Parse(args)
	view := views.NewValidate(streams, arguments.View{NoColor: *noColor, JSON: *asJSON, CompactWarnings: *compact})
	var argDiags diags.Diagnostics
	switch {
	case err != nil:
		argDiags = argDiags.Append(diags.Errorf("Failed to parse command-line flags", "%s", err))
	case fs.NArg() > 1:
		argDiags = argDiags.Append(diags.Errorf("Too many command line arguments", "Expected at most one positional argument."))
	case fs.NArg() == 1:
		argDiags = argDiags.Append(diags.Errorf("Directory argument not supported",
			"Terrane validates the configuration in the working directory only, not %q. Use the global -chdir option instead: terrane -chdir=%s validate.", fs.Arg(0), fs.Arg(0)))
	}
	if argDiags.HasErrors() {
		view.ArgumentErrors(argDiags)
		return 1
	}

	parser := config.NewParser()
	parser.Static = run.StaticInputs(".", vars, os.Environ())
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
	if !view.Result(ds, ui.Sources(parser.Files())) || ds.HasErrors() {
		return 1
	}
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
