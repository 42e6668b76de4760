package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/jsonvalidate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/refactoring"
	"github.com/terrane/terrane/internal/ui"
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
	fs := newFlagSet("validate", streams)
	asJSON := fs.Bool("json", false, "Print the result as a machine-readable JSON document")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	compact := fs.Bool("compact-warnings", false, "Show warnings in a compact form")
	var vars []arguments.VarOption
	arguments.AddVarFlags(fs, &vars)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(streams.Stderr, "Error: terrane validate takes no positional arguments (got %q).\nTo validate a configuration in another directory, use the global -chdir=DIR option.\n", fs.Arg(0))
		return 1
	}
	color := !*noColor && !*asJSON && os.Getenv("NO_COLOR") == ""

	parser := config.NewParser()
	parser.Static = staticInputs(".", vars)
	cfg, loadDiags := modules.LoadConfig(parser, ".")
	report := newValidateReport()
	report.addHCL(loadDiags)
	if cfg != nil && !report.diags.HasErrors() {
		validateConfig(context.Background(), cfg, report)
	}
	sources := ui.Sources(parser.Files())
	if *asJSON {
		return writeValidateJSON(streams.Stdout, report, sources)
	}
	view := diagnosticView(streams, arguments.View{CompactWarnings: *compact}, color)
	return writeValidateHuman(streams, view, report.diags, sources)
}

func writeValidateJSON(w io.Writer, report *validateReport, sources ui.Sources) int {
	doc := jsonvalidate.New(report.diags, sources)
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

// validateReport collects diagnostics from concurrent checks.
type validateReport struct {
	mu    sync.Mutex
	diags diags.Diagnostics
}

func newValidateReport() *validateReport {
	return &validateReport{}
}

func (r *validateReport) addHCL(hclDiags hcl.Diagnostics) {
	r.add(diags.Diagnostics{}.Append(hclDiags))
}

func (r *validateReport) add(ds diags.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = r.diags.Append(ds)
}

// validateConfig checks every module of the tree, with the providers that
// can be found.
func validateConfig(ctx context.Context, cfg *config.Config, report *validateReport) {
	running, ds := startValidationProviders(ctx, cfg)
	defer running.close()
	report.add(ds)
	// Moved and removed blocks are checked as the plan would check them
	// before it looks at any state: addresses, kinds, chains, and objects
	// still declared.
	_, refactorDiags := refactoring.FindStatements(cfg)
	report.addHCL(refactorDiags)
	_, removedDiags := refactoring.FindRemovals(cfg)
	report.addHCL(removedDiags)
	cfg.DeepEach(func(c *config.Config) {
		m := newModuleValidator(c, running, report)
		m.validateValues()
		m.validateBlocks(ctx)
	})
}
