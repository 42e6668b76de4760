package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/lang/repl"
	"github.com/terrane/terrane/internal/ui"
)

// runConsole is `terrane console`: it reads expressions from stdin, one per
// line (or several lines while brackets are open), evaluates each against
// the configuration in the working directory and prints the result as
// `tofu console` does. Input that is not a terminal is handled as OpenTofu
// handles piped input: the first error ends the session with status 1.
func runConsole(streams views.Streams, args []string) int {
	stdin, stdout, stderr := streams.Stdin, streams.Stdout, streams.Stderr
	opts, argDiags := arguments.ParseConsole(args)
	color := !opts.NoColor
	if opts.Help {
		printCommandHelp(stdout, "console")
		return 0
	}
	if argDiags.HasErrors() {
		writeLegacyDiagnostics(stderr, argDiags, color)
		return runResultHelp
	}

	out := views.NewOperation(views.Streams{Stdout: stdout, Stderr: stderr}, opts.View)
	op, ds := openOperation(out, arguments.Operation{Vars: opts.Vars, Parallelism: arguments.DefaultParallelism, AllowUnsetVariables: true}, nil, nil)
	if ds.HasErrors() {
		ui.WriteDiagnostics(stderr, ds, out.Sources(), color)
		return 1
	}
	defer op.Close()
	scope, evalDiags := op.Engine.Eval(context.Background())
	if ds = ds.Append(evalDiags); len(ds) > 0 {
		ui.WriteDiagnostics(stderr, ds, out.Sources(), color)
	}
	if ds.HasErrors() {
		return 1
	}
	scope.Data = &consoleData{mod: op.Config.Module, recorded: scope.Data}
	session := &repl.Session{Scope: scope}
	return consoleLoop(session, stdin, stdout, func(d hcl.Diagnostics) {
		ui.WriteDiagnostics(stderr, diags.Diagnostics{}.Append(d), out.Sources(), color)
	})
}

func consoleLoop(session *repl.Session, stdin io.Reader, stdout io.Writer, report func(hcl.Diagnostics)) int {
	scanner := bufio.NewScanner(stdin)
	scanner.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var pending strings.Builder
	for scanner.Scan() {
		pending.WriteString(scanner.Text())
		pending.WriteByte('\n')
		if repl.NeedsMoreInput(pending.String()) {
			continue
		}
		input := strings.TrimSpace(pending.String())
		pending.Reset()
		out, exit, hclDiags := session.Handle(input)
		if hclDiags.HasErrors() {
			report(hclDiags)
			return 1
		}
		if exit {
			return 0
		}
		if out != "" {
			fmt.Fprintln(stdout, out)
		}
	}
	if strings.TrimSpace(pending.String()) != "" {
		_, _, hclDiags := session.Handle(pending.String())
		report(hclDiags)
		return 1
	}
	return 0
}

// consoleData answers the console's references: values from the engine's
// evaluation of the configuration over the recorded state (recorded), after
// checking that what is named is declared, so a typo is an error rather than
// an unknown value.
type consoleData struct {
	mod      *config.Module
	recorded lang.Data
}

func (d *consoleData) GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.mod.Variables[addr.Name]; ok {
		return d.recorded.GetInputVariable(addr, rng)
	}
	return cty.DynamicVal, undeclaredDiag("input variable", addr.Name, fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", addr.Name, addr.Name), rng)
}

func (d *consoleData) GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.mod.Locals[addr.Name]; ok {
		return d.recorded.GetLocalValue(addr, rng)
	}
	return cty.DynamicVal, undeclaredDiag("local value", addr.Name, fmt.Sprintf("A local value with the name %q has not been declared.", addr.Name), rng)
}

func (d *consoleData) GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.mod.ModuleCalls[addr.Name]; ok {
		return d.recorded.GetModule(addr, rng)
	}
	return cty.DynamicVal, undeclaredDiag("module", addr.Name, fmt.Sprintf("No module call named %q is declared in the root module.", addr.Name), rng)
}

func (d *consoleData) GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.mod.Resources[addr]; ok {
		return d.recorded.GetResource(addr, rng)
	}
	what := "resource"
	if addr.Mode == addrs.DataResourceMode {
		what = "data resource"
	}
	return cty.DynamicVal, undeclaredDiag(what, addr.String(), fmt.Sprintf("A %s %q %q has not been declared in the root module.", what, addr.Type, addr.Name), rng)
}

func (d *consoleData) GetCountAttr(addr addrs.CountAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: `Reference to "count" in non-counted context`,
		Detail: `The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`, Subject: rng.Ptr()}}
}

func (d *consoleData) GetForEachAttr(addr addrs.ForEachAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: `Reference to "each" in context without for_each`,
		Detail: `The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`, Subject: rng.Ptr()}}
}

func (d *consoleData) GetPathAttr(addr addrs.PathAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch addr.Name {
	case "module", "root":
		return cty.StringVal("."), nil
	case "cwd":
		wd, err := originalWorkingDir, error(nil)
		if wd == "" {
			wd, err = os.Getwd()
		}
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to get working directory",
				Detail: fmt.Sprintf("The value for path.cwd cannot be determined due to a system error: %s", err), Subject: rng.Ptr()}}
		}
		return cty.StringVal(filepath.ToSlash(wd)), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: `Invalid "path" attribute`,
		Detail: fmt.Sprintf(`The "path" object does not have an attribute named %q. The available attributes are module, root and cwd.`, addr.Name), Subject: rng.Ptr()}}
}

func (d *consoleData) GetTerraformAttr(addr addrs.TerraformAttr, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if addr.Name == "workspace" {
		if ws := os.Getenv("TF_WORKSPACE"); ws != "" {
			return cty.StringVal(ws), nil
		}
		return cty.StringVal("default"), nil
	}
	return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid attribute",
		Detail: fmt.Sprintf("The %q object does not have an attribute named %q. The only supported attribute is workspace.", strings.Split(addr.String(), ".")[0], addr.Name), Subject: rng.Ptr()}}
}

func undeclaredDiag(what, name, detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared " + what, Detail: detail, Subject: rng.Ptr()}}
}
