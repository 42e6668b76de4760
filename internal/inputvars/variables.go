package inputvars

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/value"
)

// SourceType says where a variable's value came from; later sources in this
// list take precedence over earlier ones.
type SourceType int

const (
	// SourceUnset means no value was given; the declaration's default applies.
	SourceUnset SourceType = iota
	// SourceEnv is a TF_VAR_name environment variable.
	SourceEnv
	// SourceAutoFile is terraform.tfvars(.json) or a *.auto.tfvars(.json) file.
	SourceAutoFile
	// SourceNamedFile is a file given with -var-file.
	SourceNamedFile
	// SourceCLI is a -var option.
	SourceCLI
	// SourceInput is an answer to a prompt.
	SourceInput
)

func (s SourceType) String() string {
	switch s {
	case SourceEnv:
		return "environment variable"
	case SourceAutoFile:
		return "automatically-loaded variables file"
	case SourceNamedFile:
		return "-var-file"
	case SourceCLI:
		return "-var option"
	case SourceInput:
		return "interactive prompt"
	}
	return "unset"
}

// Value is one root module variable's value as given, before the
// declaration's type and default are applied.
type Value struct {
	Value  cty.Value
	Source SourceType
	// Range is where the value was written: an attribute in a variables
	// file, or a synthetic file for -var and environment values.
	Range hcl.Range
}

// VarOption is one -var or -var-file option. They share one precedence
// level: the later on the command line wins.
type VarOption struct {
	File bool
	Text string
}

// Values are the variable values a run was given, by name, and the files
// they were read from (for diagnostic snippets).
type Values struct {
	ByName map[string]*Value
	Files  map[string]*hcl.File
	// Unreadable are the variables given a value that could not be read:
	// they have no value, but are not prompted for either.
	Unreadable map[string]bool
}

// Environ is os.Environ's shape; tests pass their own.
type Environ []string

// CollectValues gathers root module variable values in Terraform's order of
// increasing precedence: TF_VAR_ environment variables, terraform.tfvars,
// terraform.tfvars.json, *.auto.tfvars(.json) in lexical order, then -var
// and -var-file options in the order given. dir is the root module's
// directory. Values for undeclared variables are errors on the command line,
// warnings in files and ignored in the environment, as in Terraform.
func CollectValues(dir string, decls map[string]*config.Variable, options []VarOption, env Environ) (*Values, diags.Diagnostics) {
	c := &collector{
		decls:  decls,
		parser: hclparse.NewParser(),
		values: &Values{ByName: map[string]*Value{}, Files: map[string]*hcl.File{}},
	}
	c.fromEnv(env)
	for _, path := range autoVarFiles(dir) {
		c.fromFile(path, SourceAutoFile)
	}
	for _, opt := range options {
		if opt.File {
			c.fromFile(opt.Text, SourceNamedFile)
		} else {
			c.fromVarOption(opt.Text)
		}
	}
	for name, file := range c.parser.Files() {
		c.values.Files[name] = file
	}
	c.summariseUndeclared()
	names := make([]string, 0, len(c.values.ByName))
	for name := range c.values.ByName {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		given := c.values.ByName[name]
		unmarked, _ := given.Value.UnmarkDeep()
		// A number variable's -var or TF_VAR_ value is kept as the string
		// given; what it becomes once converted is what must be checked.
		if decl, ok := c.decls[name]; ok && decl != nil && decl.Type.Type != cty.NilType && unmarked.Type() == cty.String {
			if converted, err := convert.Convert(unmarked, decl.Type.Type); err == nil {
				unmarked = converted
			}
		}
		if err := value.CheckNumbers(unmarked); err != nil {
			rng := given.Range
			c.diags = c.diags.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Number too large", Subject: &rng,
				Detail: fmt.Sprintf("The value of var.%s holds %s: writing it out in full, as plans, state and output do, would take minutes and megabytes.", name, strings.TrimPrefix(err.Error(), value.ErrNumberTooLarge.Error()+": "))})
		}
	}
	return c.values, c.diags
}

type collector struct {
	decls  map[string]*config.Variable
	parser *hclparse.Parser
	values *Values
	diags  diags.Diagnostics
	// undeclaredInFiles counts file values for undeclared variables; only
	// the first few are reported one by one.
	undeclaredInFiles int
}

const undeclaredFileWarningsShown = 2

func (c *collector) fromEnv(env Environ) {
	for _, entry := range env {
		key, text, ok := strings.Cut(entry, "=")
		name, isVar := strings.CutPrefix(key, "TF_VAR_")
		if !ok || !isVar || name == "" {
			continue
		}
		decl, declared := c.decls[name]
		if !declared {
			// Environment variables are often set for many configurations
			// at once, so Terraform ignores those a configuration lacks.
			continue
		}
		val, rng, parseDiags := c.parseText(decl, text, fmt.Sprintf("<value for var.%s>", name))
		c.record(name, &Value{Value: val, Source: SourceEnv, Range: rng}, parseDiags)
	}
}

func (c *collector) fromVarOption(arg string) {
	name, text, ok := strings.Cut(arg, "=")
	if !ok || name == "" {
		c.diags = c.diags.Append(diags.Errorf("Invalid -var option",
			"The given -var option %q is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", arg))
		return
	}
	decl, declared := c.decls[name]
	if !declared {
		c.diags = c.diags.Append(diags.Errorf("Value for undeclared variable",
			"A variable named %q was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration.", name))
		return
	}
	val, rng, parseDiags := c.parseText(decl, text, fmt.Sprintf("<value for var.%s>", name))
	c.record(name, &Value{Value: val, Source: SourceCLI, Range: rng}, parseDiags)
}

// record sets a variable's value, or, when reading it failed, leaves the
// variable without one, as OpenTofu does: a required variable is then
// also reported as not set, and an earlier value does not stand in.
func (c *collector) record(name string, value *Value, readDiags hcl.Diagnostics) {
	c.diags = c.diags.Append(readDiags)
	if readDiags.HasErrors() {
		delete(c.values.ByName, name)
		if c.values.Unreadable == nil {
			c.values.Unreadable = map[string]bool{}
		}
		c.values.Unreadable[name] = true
		return
	}
	delete(c.values.Unreadable, name)
	c.values.ByName[name] = value
}

// parseText reads a command-line or environment value: literally for
// variables of a primitive type and untyped ones, as an HCL expression
// otherwise. Errors in it name the synthetic filename given, with no
// snippet, as in OpenTofu.
func (c *collector) parseText(decl *config.Variable, text, filename string) (cty.Value, hcl.Range, hcl.Diagnostics) {
	src := []byte(text)
	rng := hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.Pos{Line: 1, Column: len(text) + 1, Byte: len(text)}}
	if decl.Type.ParseAsLiteral {
		return cty.StringVal(text), rng, nil
	}
	expr, parseDiags := hclsyntax.ParseExpression(src, filename, hcl.InitialPos)
	if parseDiags.HasErrors() {
		return cty.DynamicVal, rng, parseDiags
	}
	val, valDiags := expr.Value(nil)
	return val, expr.Range(), valDiags
}

func (c *collector) fromFile(path string, source SourceType) {
	src, err := os.ReadFile(path)
	if err != nil {
		detail := fmt.Sprintf("Given variables file %s does not exist.", path)
		if !os.IsNotExist(err) {
			detail = fmt.Sprintf("Error while reading %s: %s.", path, err)
		}
		c.diags = c.diags.Append(diags.Errorf("Failed to read variables file", "%s", detail))
		return
	}
	var file *hcl.File
	var parseDiags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		file, parseDiags = c.parser.ParseJSON(src, path)
	} else {
		file, parseDiags = c.parser.ParseHCL(src, path)
	}
	c.diags = c.diags.Append(parseDiags)
	if file == nil || parseDiags.HasErrors() {
		return
	}
	attrs, attrDiags := file.Body.JustAttributes()
	c.diags = c.diags.Append(attrDiags)
	for _, name := range sortedAttributeNames(attrs) {
		attr := attrs[name]
		if _, declared := c.decls[name]; !declared {
			c.warnUndeclaredInFile(name, attr)
			continue
		}
		val, valDiags := attr.Expr.Value(nil)
		c.record(name, &Value{Value: val, Source: source, Range: attr.Expr.Range()}, valDiags)
	}
}

// warnUndeclaredInFile reports a file value no variable receives: files are
// often shared between configurations, so Terraform warns rather than fails.
func (c *collector) warnUndeclaredInFile(name string, attr *hcl.Attribute) {
	c.undeclaredInFiles++
	if c.undeclaredInFiles > undeclaredFileWarningsShown {
		return
	}
	c.diags = c.diags.Append(diags.Diagnostic{
		Severity: diags.Warning,
		Summary:  "Value for undeclared variable",
		Detail: fmt.Sprintf("The root module does not declare a variable named %q but a value was found in file %q. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option.",
			name, attr.NameRange.Filename),
		// Without a source range, as in OpenTofu: such warnings are then
		// never folded into one another.
	})
}

func (c *collector) summariseUndeclared() {
	if extra := c.undeclaredInFiles - undeclaredFileWarningsShown; extra > 0 {
		c.diags = c.diags.Append(diags.Warnf("Values for undeclared variables",
			"In addition to the other similar warnings shown, %d other variable(s) defined without being declared.", extra))
	}
}

// autoVarFiles lists the variables files Terraform loads without being
// asked, in the order it loads them.
func autoVarFiles(dir string) []string {
	var files []string
	for _, name := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		path := filepath.Join(dir, name)
		if info, err := os.Stat(path); err == nil && !info.IsDir() {
			files = append(files, path)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return files
	}
	var auto []string
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !(strings.HasSuffix(name, ".auto.tfvars") || strings.HasSuffix(name, ".auto.tfvars.json")) {
			continue
		}
		auto = append(auto, filepath.Join(dir, name))
	}
	sort.Strings(auto)
	return append(files, auto...)
}

func sortedAttributeNames(attrs hcl.Attributes) []string {
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	// Source order, so diagnostics come out as the file reads.
	sort.Slice(names, func(i, j int) bool {
		return attrs[names[i]].Range.Start.Byte < attrs[names[j]].Range.Start.Byte
	})
	return names
}

// ParseInteractive reads a value typed at a prompt for decl, as a -var
// value is read: literally for primitive and untyped variables, as an
// expression otherwise.
func ParseInteractive(decl *config.Variable, text string) (*Value, *hcl.File, diags.Diagnostics) {
	c := &collector{values: &Values{Files: map[string]*hcl.File{}}}
	filename := fmt.Sprintf("<value for var.%s>", decl.Name)
	val, rng, parseDiags := c.parseText(decl, text, filename)
	return &Value{Value: val, Source: SourceInput, Range: rng}, c.values.Files[filename], diags.Diagnostics{}.Append(parseDiags)
}
