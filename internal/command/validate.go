package command

import (
	"context"
	"os"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
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
func runValidate(streams views.Streams, args []string) int {
	opts, argDiags := arguments.ParseValidate(args)
	view := views.NewValidate(streams, opts.View)
	if argDiags.HasErrors() {
		view.ArgumentErrors(argDiags)
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
