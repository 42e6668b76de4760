package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/stateedit"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// stateCommand is what every state subcommand shares: its streams, colour
// choice and the current workspace's records.
type stateCommand struct {
	streams   Streams
	color     bool
	workspace string
	store     *recordstore.Store
	closer    func() error
	// vars are -var and -var-file options, for an encryption
	// configuration that references variables.
	vars   []arguments.VarOption
	cipher *encryption.RecordCipher
}

// parseStateFlags parses a state subcommand's options: -no-color, -var and
// -var-file (for an encryption configuration that uses variables), which
// every one takes, and those setup adds. It returns a nil command when the
// options are wrong, after printing OpenTofu's error and the command's
// help.
func parseStateFlags(streams Streams, name string, args []string, setup func(*flag.FlagSet)) (*stateCommand, *flag.FlagSet) {
	fs := newFlagSet(name, streams)
	fs.SetOutput(io.Discard)
	if setup != nil {
		setup(fs)
	}
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	var vars []arguments.VarOption
	arguments.AddVarFlags(fs, &vars)
	err := fs.Parse(args)
	c := &stateCommand{streams: streams, color: ui.ColorEnabled(*noColor), vars: vars}
	var ds diags.Diagnostics
	if err != nil {
		summary := "Failed to parse command-line flags"
		if name == "state replace-provider" {
			summary = "Error parsing command-line flags" // as OpenTofu words it there
		}
		ds = ds.Append(diags.Errorf(summary, "%s", err))
	}
	// As OpenTofu's parsers do, the count of arguments is checked after a
	// flag error too, and both are reported.
	if check := stateArgCounts[name]; check != nil {
		if d := check(fs.NArg()); d != nil {
			ds = ds.Append(*d)
		}
	}
	if len(ds) > 0 {
		c.usageError(name, ds...)
		return nil, fs
	}
	return c, fs
}

// stateArgCounts check the number of arguments of the state subcommands
// that OpenTofu checks while parsing them, in its words.
var stateArgCounts = map[string]func(n int) *diags.Diagnostic{
	"state mv":               exactArgs(2, "Exactly two arguments expected"),
	"state replace-provider": exactArgs(2, "Exactly two arguments expected"),
	"state push":             exactArgs(1, "Exactly one argument expected"),
	"state show":             exactArgs(1, "Exactly one argument expected"),
	"state rm": func(n int) *diags.Diagnostic {
		if n > 0 {
			return nil
		}
		d := diags.Errorf("Invalid number of arguments", "At least one address is required")
		return &d
	},
}

func exactArgs(want int, detail string) func(int) *diags.Diagnostic {
	return func(n int) *diags.Diagnostic {
		if n == want {
			return nil
		}
		d := diags.Errorf("Invalid number of arguments", "%s", detail)
		return &d
	}
}

// usageError prints ds and the command's help, as OpenTofu does for wrong
// arguments, and returns the exit code. OpenTofu's state list writes its
// diagnostics without the empty line after each that the other state
// commands write.
func (c *stateCommand) usageError(name string, ds ...diags.Diagnostic) int {
	if name == "state list" {
		ui.WriteDiagnostics(c.streams.Stderr, ds, nil, c.color)
	} else {
		writeLegacyDiagnostics(c.streams.Stderr, ds, c.color)
	}
	printCommandHelp(c.streams.Stdout, name)
	return 1
}

// fail prints ds and returns the exit code for a failed command.
func (c *stateCommand) fail(ds ...diags.Diagnostic) int {
	writeLegacyDiagnostics(c.streams.Stderr, ds, c.color)
	return 1
}

// writeLegacyDiagnostics writes diagnostics as OpenTofu's older commands
// (state, taint, workspace and the like) do through Meta.showDiagnostics:
// each followed by an empty line, the newline its Ui adds.
func writeLegacyDiagnostics(w io.Writer, ds diags.Diagnostics, color bool) {
	writeLegacyDiagnosticsWithSources(w, ds, nil, color)
}

// writeLegacyDiagnosticsWithSources is writeLegacyDiagnostics with the
// configuration files the diagnostics may point into.
func writeLegacyDiagnosticsWithSources(w io.Writer, ds diags.Diagnostics, sources ui.Sources, color bool) {
	ui.DiagnosticView{Color: color, ConsolidateWarnings: true, NewlineAfter: true}.Write(w, w, ds, sources)
}

// open opens the current workspace's records in the working directory.
func (c *stateCommand) open() *diags.Diagnostic {
	project, err := workdir.Project()
	if err != nil {
		d := diags.Errorf("Invalid project", "%s.", err)
		return &d
	}
	if c.workspace, err = workdir.CurrentWorkspace("."); err != nil {
		d := diags.Errorf("Invalid workspace", "%s.", err)
		return &d
	}
	if d := c.prepareCipher(); d != nil {
		return d
	}
	c.store, c.closer, err = workdir.OpenStore(".", project, c.workspace, c.cipher)
	if err != nil {
		d := firstError(diags.Diagnostics{}.Append(err))
		return &d
	}
	return nil
}

// prepareCipher loads the state encryption of the working directory, once.
func (c *stateCommand) prepareCipher() *diags.Diagnostic {
	if c.cipher != nil {
		return nil
	}
	cipher, ds := stateCipher(".", nil, c.vars)
	if ds.HasErrors() {
		d := firstError(ds)
		return &d
	}
	c.cipher = cipher
	return nil
}

func (c *stateCommand) close() {
	if c.closer != nil {
		c.closer()
	}
}

// load opens the store and reads the workspace's whole state.
func (c *stateCommand) load(ctx context.Context) (*recordstore.Snapshot, *diags.Diagnostic) {
	if d := c.open(); d != nil {
		return nil, d
	}
	snap, err := c.store.Load(ctx)
	if err != nil {
		d := storeError("Failed to read the state", fmt.Errorf("reading workspace %q: %w", c.workspace, err), "")
		return nil, &d
	}
	return snap, nil
}

// commit writes changes in one batch and explains a conflict by address.
func (c *stateCommand) commit(ctx context.Context, changes []recordstore.InstanceChange) *diags.Diagnostic {
	if _, err := c.store.Commit(ctx, changes); err != nil {
		d := commitFailure(err, c.workspace)
		return &d
	}
	return nil
}

// commitFailure explains a failed commit of a state command, naming the
// instance another run changed when that is why.
func commitFailure(err error, workspace string) diags.Diagnostic {
	var conflict *recordstore.ConflictError
	if errors.As(err, &conflict) {
		d := diags.Errorf("State changed by another run", "%s changed in workspace %q while this command was working on it, so nothing was written. Run the command again to work from the current state.",
			conflict.Addr, workspace)
		d.Address = conflict.Addr.String()
		return d
	}
	return diags.Errorf("Failed to write the state", "Writing workspace %q: %s. Nothing was changed.", workspace, err)
}

// firstError returns the first error of ds, for commands that report one.
func firstError(ds diags.Diagnostics) diags.Diagnostic {
	for _, d := range ds {
		if d.Severity == diags.Error {
			return d
		}
	}
	return diags.Errorf("Unknown error", "An operation failed without saying why.")
}

// parseTargets reads address arguments as OpenTofu's state commands do,
// reporting each invalid one.
func parseTargets(texts []string) ([]stateedit.Target, diags.Diagnostics) {
	var ds diags.Diagnostics
	targets := make([]stateedit.Target, 0, len(texts))
	for _, text := range texts {
		target, parseDiags := stateedit.ParseTarget(text)
		ds = ds.Append(parseDiags)
		if !parseDiags.HasErrors() {
			targets = append(targets, target)
		}
	}
	return targets, ds
}

// confirm asks the user to type "yes", as Terraform's prompts do.
func confirm(streams Streams, question, detail string) bool {
	return askInput(streams, false, question, detail+"\nOnly 'yes' will be accepted to confirm.") == "yes"
}

// askInput asks a question as OpenTofu's UIInput does: the query in bold,
// the description indented below it, then "Enter a value:"; it ends the
// line after the answer and returns the answer without trailing space.
func askInput(streams Streams, color bool, query, description string) string {
	var b strings.Builder
	b.WriteString("[reset][bold]" + query + "[reset]\n")
	if description != "" {
		for _, line := range strings.Split(description, "\n") {
			b.WriteString("  " + line + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("  [bold]Enter a value:[reset] ")
	fmt.Fprint(streams.Stdout, ui.Colorize(b.String(), color))
	line := readLine(streams.Stdin)
	fmt.Fprintln(streams.Stdout)
	return strings.TrimRightFunc(line, unicode.IsSpace)
}

// readLine reads one line a byte at a time, so that a command asking more
// than one question never reads ahead into the next answer.
func readLine(r io.Reader) string {
	var line strings.Builder
	b := make([]byte, 1)
	for {
		n, err := r.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				return line.String()
			}
			line.WriteByte(b[0])
		}
		if err != nil {
			return line.String()
		}
	}
}

// refuseDirectoryArgument reports, and returns true, when a command that
// works on the working directory's configuration was given a positional
// argument, which OpenTofu's older commands took as a directory: the
// global -chdir option is the way now.
func refuseDirectoryArgument(streams Streams, args []string, command, does string, color bool) bool {
	if len(args) == 0 {
		return false
	}
	writeLegacyDiagnostics(streams.Stderr, diags.Diagnostics{diags.Errorf("Unexpected argument",
		"terrane %s %s; to use another, use the global -chdir=DIR option: terrane -chdir=%s %s.", command, does, args[0], command)}, color)
	return true
}
