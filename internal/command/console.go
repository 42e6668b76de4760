package command

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/lang/marks"
	"github.com/terrane/terrane/internal/lang/repl"
	"github.com/terrane/terrane/internal/ui"
)

// runConsole is `terrane console`: it reads expressions from stdin, one per
// line (or several lines while brackets are open), evaluates each against
// the configuration in the working directory and prints the result as
// `tofu console` does. Input that is not a terminal is handled as OpenTofu
// handles piped input: the first error ends the session with status 1.
func runConsole(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("console", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var varArgs, varFiles multiFlag
	flags.Var(&varArgs, "var", "set an input variable: -var 'name=value'")
	flags.Var(&varFiles, "var-file", "load input variable values from a .tfvars file")
	noColor := flags.Bool("no-color", false, "disable colour in diagnostics")
	if err := flags.Parse(args); err != nil {
		return 1
	}
	color := !*noColor && os.Getenv("NO_COLOR") == ""

	parser := config.NewParser()
	mod, loadDiags := parser.LoadModule(".")
	var ds diags.Diagnostics
	ds = ds.Append(loadDiags)
	if mod == nil || loadDiags.HasErrors() {
		ui.WriteDiagnostics(stderr, ds, ui.Sources(parser.Files()), color)
		return 1
	}
	data, dataDiags := newConsoleData(mod, varArgs, varFiles)
	if dataDiags.HasErrors() {
		ui.WriteDiagnostics(stderr, ds.Append(dataDiags), ui.Sources(parser.Files()), color)
		return 1
	}
	session := &repl.Session{Scope: &lang.Scope{Data: data, BaseDir: ".", ConsoleMode: true}}
	data.scope = session.Scope
	return consoleLoop(session, stdin, stdout, func(d hcl.Diagnostics) {
		ui.WriteDiagnostics(stderr, diags.Diagnostics{}.Append(d), ui.Sources(parser.Files()), color)
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

// multiFlag collects every use of a repeatable flag, in order.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// consoleData answers references from the configuration alone: variables
// from -var, -var-file, TF_VAR_ and defaults; locals evaluated on demand;
// resources and module outputs unknown, as there is no state to read.
type consoleData struct {
	mod       *config.Module
	scope     *lang.Scope
	variables map[string]cty.Value
	locals    map[string]cty.Value
	// evaluating guards against locals that refer to themselves.
	evaluating map[string]bool
}

func newConsoleData(mod *config.Module, varArgs, varFiles []string) (*consoleData, hcl.Diagnostics) {
	raw, diags := collectVariableValues(mod, varArgs, varFiles)
	data := &consoleData{mod: mod, variables: map[string]cty.Value{}, locals: map[string]cty.Value{}, evaluating: map[string]bool{}}
	for name, variable := range mod.Variables {
		val, valDiags := finalVariableValue(variable, raw[name])
		diags = append(diags, valDiags...)
		data.variables[name] = val
	}
	return data, diags
}

// collectVariableValues gathers values as given, in increasing precedence:
// TF_VAR_ environment variables, -var-file files, then -var flags.
func collectVariableValues(mod *config.Module, varArgs, varFiles []string) (map[string]cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	values := map[string]cty.Value{}
	for name, variable := range mod.Variables {
		if env, ok := os.LookupEnv("TF_VAR_" + name); ok {
			val, d := parseVariableText(variable, env, "environment variable TF_VAR_"+name)
			diags = append(diags, d...)
			values[name] = val
		}
	}
	for _, path := range varFiles {
		fileValues, d := readVarFile(path)
		diags = append(diags, d...)
		for name, val := range fileValues {
			values[name] = val
		}
	}
	for _, arg := range varArgs {
		name, text, ok := strings.Cut(arg, "=")
		if !ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid -var option",
				Detail: fmt.Sprintf("The given -var option %q is not correctly specified. It must be a variable name and value separated by an equals sign, like -var=\"key=value\".", arg)})
			continue
		}
		variable, declared := mod.Variables[name]
		if !declared {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Value for undeclared variable",
				Detail: fmt.Sprintf("A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name)})
			continue
		}
		val, d := parseVariableText(variable, text, "-var option")
		diags = append(diags, d...)
		values[name] = val
	}
	return values, diags
}

// parseVariableText reads a command-line or environment value: literally
// for string-typed and untyped variables, as an HCL expression otherwise.
func parseVariableText(variable *config.Variable, text, source string) (cty.Value, hcl.Diagnostics) {
	if variable.Type.ParseAsLiteral {
		return cty.StringVal(text), nil
	}
	expr, diags := hclsyntax.ParseExpression([]byte(text), "<value for var."+variable.Name+" from "+source+">", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return expr.Value(nil)
}

func readVarFile(path string) (map[string]cty.Value, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read variables file",
			Detail: fmt.Sprintf("Given variables file %s does not exist or cannot be read: %s.", path, err)}}
	}
	file, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	attrs, diags := file.Body.JustAttributes()
	values := make(map[string]cty.Value, len(attrs))
	for name, attr := range attrs {
		val, valDiags := attr.Expr.Value(nil)
		diags = append(diags, valDiags...)
		values[name] = val
	}
	return values, diags
}

// finalVariableValue applies the default, the type constraint with its
// optional-attribute defaults, and the sensitive flag of a declaration.
func finalVariableValue(variable *config.Variable, given cty.Value) (cty.Value, hcl.Diagnostics) {
	val := given
	if val == cty.NilVal || (val.IsNull() && !variable.Nullable) {
		if variable.Default == nil {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No value for required variable",
				Detail:  fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument or set a TF_VAR_%s environment variable to provide a value for this variable.", variable.Name, variable.Name),
				Subject: variable.DeclRange.Ptr()}}
		}
		def, diags := variable.Default.Value(nil)
		if diags.HasErrors() {
			return cty.DynamicVal, diags
		}
		val = def
	}
	if variable.Type.Defaults != nil {
		val = variable.Type.Defaults.Apply(val)
	}
	converted, err := convert.Convert(val, variable.Type.Type)
	if err != nil {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value for input variable",
			Detail:  fmt.Sprintf("The value given for variable %q is not suitable: %s.", variable.Name, err),
			Subject: variable.DeclRange.Ptr()}}
	}
	if variable.Sensitive {
		converted = converted.Mark(marks.Sensitive)
	}
	return converted, nil
}

func (d *consoleData) GetInputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, ok := d.variables[addr.Name]; ok {
		return val, nil
	}
	return cty.DynamicVal, undeclaredDiag("input variable", addr.Name, fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", addr.Name, addr.Name), rng)
}

func (d *consoleData) GetLocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if val, ok := d.locals[addr.Name]; ok {
		return val, nil
	}
	local, declared := d.mod.Locals[addr.Name]
	if !declared {
		return cty.DynamicVal, undeclaredDiag("local value", addr.Name, fmt.Sprintf("A local value with the name %q has not been declared.", addr.Name), rng)
	}
	if d.evaluating[addr.Name] {
		return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Self-referencing local value",
			Detail: fmt.Sprintf("Local value local.%s refers to itself, directly or through other local values.", addr.Name), Subject: local.DeclRange.Ptr()}}
	}
	d.evaluating[addr.Name] = true
	val, diags := d.scope.EvalExpr(local.Expr, cty.DynamicPseudoType)
	delete(d.evaluating, addr.Name)
	d.locals[addr.Name] = val
	return val, diags
}

func (d *consoleData) GetModule(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.mod.ModuleCalls[addr.Name]; ok {
		return cty.DynamicVal, nil
	}
	return cty.DynamicVal, undeclaredDiag("module", addr.Name, fmt.Sprintf("No module call named %q is declared in the root module.", addr.Name), rng)
}

func (d *consoleData) GetResource(addr addrs.Resource, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if _, ok := d.mod.Resources[addr]; ok {
		return cty.DynamicVal, nil
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
		wd, err := os.Getwd()
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to get working directory", Detail: err.Error(), Subject: rng.Ptr()}}
		}
		return cty.StringVal(wd), nil
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
