package inputvars

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// RawValue is a variable value as given before it is known which
// configuration will use it, as `terrane test` needs: each run may test a
// different module, declaring the variable with its own type or not at
// all. A file's value is an expression; a -var option's or environment
// variable's is text, read as the declaration's type asks when used.
type RawValue struct {
	Source SourceType
	text   string
	isText bool
	// filename names the synthetic file of a text value, for snippets.
	filename string
	expr     hcl.Expression
}

// Parse returns the value for a variable declared as decl, or, with no
// declaration, the text read literally as a string and an expression
// evaluated.
func (v *RawValue) Parse(decl *config.Variable) (cty.Value, hcl.Range, diags.Diagnostics) {
	if !v.isText {
		val, hd := v.expr.Value(nil)
		return val, v.expr.Range(), diags.Diagnostics{}.Append(hd)
	}
	rng := hcl.Range{Filename: v.filename, Start: hcl.InitialPos, End: hcl.Pos{Line: 1, Column: len(v.text) + 1, Byte: len(v.text)}}
	if decl == nil || decl.Type.ParseAsLiteral {
		return cty.StringVal(v.text), rng, nil
	}
	expr, hd := hclsyntax.ParseExpression([]byte(v.text), v.filename, hcl.InitialPos)
	if hd.HasErrors() {
		return cty.DynamicVal, rng, diags.Diagnostics{}.Append(hd)
	}
	val, hd := expr.Value(nil)
	return val, expr.Range(), diags.Diagnostics{}.Append(hd)
}

// RawValues are the values CollectRawValues found, by name, and the files
// they were read from.
type RawValues struct {
	ByName map[string]*RawValue
	Files  map[string]*hcl.File
}

// CollectRawValues gathers variable values in OpenTofu's order of
// increasing precedence for `tofu test`, without checking them against
// declarations: TF_VAR_ environment variables, then terraform.tfvars and
// *.auto.tfvars in rootDir, then -var and -var-file options in order, then
// terraform.tfvars and *.auto.tfvars in testDir (so the test directory's
// files win over the command line, unlike Terraform's order).
func CollectRawValues(rootDir, testDir string, options []VarOption, env Environ) (*RawValues, diags.Diagnostics) {
	out := &RawValues{ByName: map[string]*RawValue{}, Files: map[string]*hcl.File{}}
	parser := hclparse.NewParser()
	var ds diags.Diagnostics
	for _, entry := range env {
		key, text, ok := strings.Cut(entry, "=")
		name, isVar := strings.CutPrefix(key, "TF_VAR_")
		if ok && isVar && name != "" {
			out.setText(name, text, SourceEnv, fmt.Sprintf("<value for var.%s>", name))
		}
	}
	for _, path := range autoVarFiles(rootDir) {
		ds = ds.Append(out.fromFile(parser, path, SourceAutoFile))
	}
	for _, opt := range options {
		if opt.File {
			ds = ds.Append(out.fromFile(parser, opt.Text, SourceNamedFile))
			continue
		}
		name, text, ok := strings.Cut(opt.Text, "=")
		if !ok || name == "" {
			ds = ds.Append(diags.Errorf("Invalid -var option",
				"The given -var option %q is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", opt.Text))
			continue
		}
		out.setText(name, text, SourceCLI, fmt.Sprintf("<value for var.%s>", name))
	}
	if testDir != "" && filepath.Clean(testDir) != filepath.Clean(rootDir) {
		for _, path := range autoVarFiles(testDir) {
			ds = ds.Append(out.fromFile(parser, path, SourceAutoFile))
		}
	}
	for name, file := range parser.Files() {
		out.Files[name] = file
	}
	return out, ds
}

func (v *RawValues) setText(name, text string, source SourceType, filename string) {
	// The text's synthetic file is not a source diagnostics can quote:
	// OpenTofu shows "(source code not available)" for it.
	v.ByName[name] = &RawValue{Source: source, text: text, isText: true, filename: filename}
}

func (v *RawValues) fromFile(parser *hclparse.Parser, path string, source SourceType) diags.Diagnostics {
	src, err := os.ReadFile(path)
	if err != nil {
		detail := fmt.Sprintf("Given variables file %s does not exist.", path)
		if !os.IsNotExist(err) {
			detail = fmt.Sprintf("Error while reading %s: %s.", path, err)
		}
		return diags.Diagnostics{diags.Errorf("Failed to read variables file", "%s", detail)}
	}
	var file *hcl.File
	var hd hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		file, hd = parser.ParseJSON(src, path)
	} else {
		file, hd = parser.ParseHCL(src, path)
	}
	ds := diags.Diagnostics{}.Append(hd)
	if file != nil {
		v.Files[path] = file
	}
	if file == nil || hd.HasErrors() {
		return ds
	}
	attrs, hd := file.Body.JustAttributes()
	ds = ds.Append(hd)
	for name, attr := range attrs {
		v.ByName[name] = &RawValue{Source: source, expr: attr.Expr}
	}
	return ds
}
