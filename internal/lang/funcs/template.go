package funcs

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// defaultTemplateDepth bounds templatefile calls nested inside templates,
// so a template that includes itself fails instead of exhausting memory.
// TF_TEMPLATE_RECURSION_DEPTH sets another bound, as in OpenTofu.
const defaultTemplateDepth = 1024

// templateDepthLimit is the bound on nested templatefile calls.
func templateDepthLimit() (int, error) {
	val := os.Getenv("TF_TEMPLATE_RECURSION_DEPTH")
	if val == "" {
		return defaultTemplateDepth, nil
	}
	n, err := strconv.Atoi(val)
	if err != nil {
		return -1, fmt.Errorf("invalid value for TF_TEMPLATE_RECURSION_DEPTH: %w", err)
	}
	return n, nil
}

// templateRecursionError is the error of a templatefile call nested too
// deep. Each template between the failing call and the outermost one adds
// the source range of its templatefile call as the error unwinds, so that
// the outermost call reports one error naming where the loop is, not one
// nested error per level.
type templateRecursionError struct {
	sources []string // innermost first
}

func (e templateRecursionError) Error() string {
	// The first few sources, up to the first repeated one, show the loop.
	const maxTrace = 16
	var trace []string
	for _, src := range e.sources[:min(maxTrace, len(e.sources))] {
		repeated := slices.Contains(trace, src)
		trace = append(trace, src)
		if repeated {
			break
		}
	}
	return fmt.Sprintf("maximum recursion depth %d reached in %s ... ", len(e.sources)-1, strings.Join(trace, ", "))
}

// templateStringFilename is the pseudo-filename of templatestring sources,
// which have no file of their own; OpenTofu's name for it shows in error
// messages.
const templateStringFilename = "NoFileNeeded"

// FunctionTable returns the functions a template may call; it is a callback
// because the template functions are themselves members of that table.
type FunctionTable func() map[string]function.Function

// MakeTemplateFileFunc builds `templatefile(path, vars)`: reads a template
// file relative to baseDir and renders it with vars and the scope's functions.
func MakeTemplateFileFunc(baseDir string, table FunctionTable) function.Function {
	return makeTemplateFileFunc(baseDir, table, 0)
}

func makeTemplateFileFunc(baseDir string, table FunctionTable, depth int) function.Function {
	parse := func(pathVal cty.Value) (hcl.Expression, error) {
		path, pathMarks := pathVal.Unmark()
		limit, err := templateDepthLimit()
		if err != nil {
			return nil, err
		}
		if depth > limit {
			return nil, templateRecursionError{}
		}
		src, err := readFileBytes(baseDir, path.AsString(), pathMarks)
		if err != nil {
			return nil, err
		}
		if !utf8.Valid(src) {
			return nil, fmt.Errorf("contents of %s are not valid UTF-8", redactIfSensitive(path.AsString(), pathMarks))
		}
		expr, diags := hclsyntax.ParseTemplate(src, path.AsString(), hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			return nil, diags
		}
		return expr, nil
	}
	nested := func() map[string]function.Function {
		outer := table()
		inner := make(map[string]function.Function, len(outer))
		for name, f := range outer {
			inner[name] = f
		}
		inner["templatefile"] = makeTemplateFileFunc(baseDir, table, depth+1)
		return inner
	}
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[0].IsKnown() || !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			// Rendering here lets the caller learn the result type early
			// and report template errors during validation.
			expr, err := parse(args[0])
			if err != nil {
				return cty.DynamicPseudoType, err
			}
			val, err := renderTemplate(expr, args[1], nested())
			return val.Type(), err
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			expr, err := parse(args[0])
			if err != nil {
				return cty.DynamicVal, err
			}
			_, pathMarks := args[0].Unmark()
			val, err := renderTemplate(expr, args[1], nested())
			return val.WithMarks(pathMarks), err
		},
	})
}

// MakeTemplateStringFunc builds `templatestring(data, vars)`: renders a
// template held in a string value (typically read from a data source).
func MakeTemplateStringFunc(table FunctionTable) function.Function {
	parse := func(data cty.Value) (hcl.Expression, error) {
		data, _ = data.Unmark()
		expr, diags := hclsyntax.ParseTemplate([]byte(data.AsString()), templateStringFilename, hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			return nil, diags
		}
		return expr, nil
	}
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "data", Type: cty.String, AllowMarked: true},
			{Name: "vars", Type: cty.DynamicPseudoType, AllowMarked: true},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[0].IsKnown() || !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			expr, err := parse(args[0])
			if err != nil {
				return cty.DynamicPseudoType, err
			}
			vars, _ := args[1].Unmark()
			val, err := renderTemplate(expr, vars, table())
			return val.Type(), err
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			expr, err := parse(args[0])
			if err != nil {
				return cty.DynamicVal, err
			}
			_, dataMarks := args[0].Unmark()
			vars, varsMarks := args[1].Unmark()
			val, err := renderTemplate(expr, vars, table())
			return val.WithMarks(dataMarks, varsMarks), err
		},
	})
}

func renderTemplate(expr hcl.Expression, vars cty.Value, functions map[string]function.Function) (cty.Value, error) {
	if ty := vars.Type(); !ty.IsMapType() && !ty.IsObjectType() {
		return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}
	if vars.IsNull() {
		return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must not be null")
	}
	ctx := &hcl.EvalContext{Variables: vars.AsValueMap(), Functions: functions}
	for name := range ctx.Variables {
		if !hclsyntax.ValidIdentifier(name) {
			return cty.DynamicVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", name)
		}
	}
	// Checking references first gives an error that points at the vars
	// argument rather than HCL's generic "unknown variable".
	for _, traversal := range expr.Variables() {
		root := traversal.RootName()
		if _, ok := ctx.Variables[root]; ok {
			continue
		}
		if expr.Range().Filename == templateStringFilename {
			return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q", root)
		}
		return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", root, traversal[0].SourceRange())
	}
	val, diags := expr.Value(ctx)
	if diags.HasErrors() {
		if err, ok := nestedRecursionError(diags); ok {
			return cty.DynamicVal, err
		}
		return cty.DynamicVal, diags
	}
	return val, nil
}

// nestedRecursionError finds a templatefile call among diags that failed
// for nesting too deep, and returns its error with that call's source
// range added.
func nestedRecursionError(diags hcl.Diagnostics) (templateRecursionError, bool) {
	for _, diag := range diags {
		extra, ok := diag.Extra.(hclsyntax.FunctionCallDiagExtra)
		if !ok || extra.CalledFunctionName() != "templatefile" {
			continue
		}
		if err, ok := extra.FunctionCallError().(templateRecursionError); ok && diag.Subject != nil {
			return templateRecursionError{sources: append(err.sources, diag.Subject.String())}, true
		}
	}
	return templateRecursionError{}, false
}
