package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/marks"
)

// This file turns the deprecation marks of an evaluated value (values read
// from deprecated module outputs, see marks.Deprecation) into OpenTofu's
// warnings, taking the marks off.

// deprecationWarning is the Extra of a deprecation warning: its cause is
// the deprecated output, by which the warnings are grouped and, on a
// command's output, shown once and filtered by -deprecation=module:.
type deprecationWarning struct{ cause marks.Deprecation }

// ExtraInfoKey groups the warnings of one output (diags.ConsolidationKeyer).
func (w deprecationWarning) ExtraInfoKey() string { return w.cause.By }

// DeprecationCause implements diags.DeprecationWarning.
func (w deprecationWarning) DeprecationCause() (string, bool) {
	return "output " + w.cause.By, w.cause.FromRemoteModule
}

// takeDeprecationsFromExpr warns, at expr, of each deprecated output val
// is derived from.
func takeDeprecationsFromExpr(val cty.Value, expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
	val, found := marks.TakeDeprecations(val)
	var out hcl.Diagnostics
	for _, d := range found {
		source := "This value"
		if attr := strings.TrimPrefix(diags.FormatPath(d.Path), "."); len(d.Path) > 0 && attr != "" {
			source += "'s attribute " + attr
		}
		out = append(out, &hcl.Diagnostic{
			Severity:   hcl.DiagWarning,
			Summary:    "Value derived from a deprecated source",
			Detail:     deprecationDetail(source, d.Cause),
			Subject:    expr.Range().Ptr(),
			Expression: expr,
			Extra:      deprecationWarning{d.Cause},
		})
	}
	return val, out
}

// takeDeprecationsFromBlock warns, at the argument of body the path leads
// to, of each deprecated output val is derived from.
func takeDeprecationsFromBlock(val cty.Value, body hcl.Body) (cty.Value, hcl.Diagnostics) {
	val, found := marks.TakeDeprecations(val)
	var out hcl.Diagnostics
	for _, d := range found {
		subject := diags.AttributeRange(body, d.Path)
		out = append(out, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Value derived from a deprecated source",
			Detail:   deprecationDetail("This value", d.Cause),
			Subject:  &subject,
			Extra:    deprecationWarning{d.Cause},
		})
	}
	return val, out
}

func deprecationDetail(source string, cause marks.Deprecation) string {
	if cause.Message == "" {
		return fmt.Sprintf("%s is derived from %s, which is deprecated.", source, cause.By)
	}
	return fmt.Sprintf("%s is derived from %s, which is deprecated with the following message:\n\n%s", source, cause.By, cause.Message)
}

// variableDeprecation is the Extra of the warning for a value passed to a
// deprecated variable.
type variableDeprecation struct {
	key    string
	remote bool
}

// ExtraInfoKey groups the warnings of one variable (diags.ConsolidationKeyer).
func (v variableDeprecation) ExtraInfoKey() string { return v.key }

// DeprecationCause implements diags.DeprecationWarning.
func (v variableDeprecation) DeprecationCause() (string, bool) { return "variable " + v.key, v.remote }

// DeprecatedVariableWarning is OpenTofu's warning for a module call that
// gives a value to a variable declared deprecated, at the value's
// expression. fromRemoteModule is set when the called module comes from a
// source other than a local path.
func DeprecatedVariableWarning(name, message string, expr hcl.Expression, fromRemoteModule bool) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Warning,
		Summary:  "Variable marked as deprecated by the module author",
		Detail:   fmt.Sprintf("Variable %q is marked as deprecated with the following message:\n%s", name, message),
		Subject:  expr.Range().Ptr(),
		Extra:    variableDeprecation{key: name + "\n" + message, remote: fromRemoteModule},
	}
}
