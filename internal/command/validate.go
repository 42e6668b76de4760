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
	"github.com/terrane/terrane/internal/engine"
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
	return writeValidateHuman(streams, report.diags, sources, color)
}

func writeValidateJSON(w io.Writer, report *validateReport, sources ui.Sources) int {
	doc := jsonvalidate.New(report.diags, sources, report.evaluationOf)
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

// writeValidateHuman prints warnings on stdout and errors on stderr, as
// Terraform does, then the verdict.
func writeValidateHuman(streams Streams, ds diags.Diagnostics, sources ui.Sources, color bool) int {
	var warnings, errs diags.Diagnostics
	for _, d := range ds {
		if d.Severity == diags.Error {
			errs = append(errs, d)
		} else {
			warnings = append(warnings, d)
		}
	}
	ui.WriteDiagnostics(streams.Stdout, warnings, sources, color)
	ui.WriteDiagnostics(streams.Stderr, errs, sources, color)
	if len(errs) > 0 {
		return 1
	}
	// OpenTofu's views.ValidateHuman.Results: one line, colour included,
	// wrapped to the output's width.
	success := "Success!"
	if color {
		success = "\x1b[32m\x1b[1mSuccess!\x1b[0m"
	}
	msg := success + " The configuration is valid."
	if len(warnings) > 0 {
		msg = success + " The configuration is valid, but there were some validation warnings as shown above."
	}
	fmt.Fprintln(streams.Stdout, ui.WordWrap(msg, ui.Width(streams.Stdout)))
	return 0
}

// validateReport collects diagnostics from concurrent checks, remembering
// which expression each evaluation diagnostic came from so that the JSON
// output can show the values involved.
type validateReport struct {
	mu          sync.Mutex
	diags       diags.Diagnostics
	evaluations map[*hcl.Range]*jsonvalidate.Evaluation
}

func newValidateReport() *validateReport {
	return &validateReport{evaluations: map[*hcl.Range]*jsonvalidate.Evaluation{}}
}

func (r *validateReport) addHCL(hclDiags hcl.Diagnostics) {
	r.recordEvaluations(hclDiags)
	r.add(diags.Diagnostics{}.Append(hclDiags))
}

// recordEvaluations remembers the expressions behind evaluation
// diagnostics. diags.FromHCL keeps the Subject pointer, which identifies
// the diagnostic again in evaluationOf.
func (r *validateReport) recordEvaluations(hclDiags hcl.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range hclDiags {
		if d.Expression != nil && d.Subject != nil {
			r.evaluations[d.Subject] = &jsonvalidate.Evaluation{Expression: d.Expression, EvalContext: d.EvalContext}
		}
	}
}

func (r *validateReport) add(ds diags.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags = r.diags.Append(ds)
}

func (r *validateReport) evaluationOf(d diags.Diagnostic) *jsonvalidate.Evaluation {
	if d.Subject == nil {
		return nil
	}
	return r.evaluations[d.Subject]
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
	// Lifecycle arguments are checked as a plan checks them first.
	report.add(engine.ValidateLifecycle(cfg, running.schemas()))
}
