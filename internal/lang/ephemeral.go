package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/schema"
)

// EphemeralInPersistedAttributes reports every place in the evaluated
// configuration of a resource or data source, given by the marks its
// UnmarkDeepWithPaths found, where an ephemeral value reaches an attribute
// that is not write-only. Such an attribute is sent back by the provider
// and recorded in the plan and the state, which an ephemeral value must
// never reach. Each diagnostic carries the attribute path, for the caller
// to place on the configuration.
func EphemeralInPersistedAttributes(block *schema.Block, pathMarks []cty.PathValueMarks) diags.Diagnostics {
	var ds diags.Diagnostics
	seen := map[string]bool{}
	for _, pm := range pathMarks {
		if _, ephemeral := pm.Marks[marks.Ephemeral]; !ephemeral {
			continue
		}
		path := pm.Path
		if block != nil && block.WriteOnlyAt(path) {
			continue
		}
		shown := "." + diags.FormatPath(path)
		if seen[shown] {
			continue
		}
		seen[shown] = true
		ds = ds.Append(diags.Diagnostic{
			Severity:      diags.Error,
			Summary:       "Ephemeral value used in non-ephemeral context",
			Detail:        fmt.Sprintf("Attribute %q is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.", shown),
			AttributePath: path,
		})
	}
	return ds
}

// ephemeralArgumentDiag is the error for an ephemeral value given to a
// meta-argument whose value is kept between runs, count or for_each, in
// OpenTofu's words: the value would become part of instance addresses.
func ephemeralArgumentDiag(argument string, expr hcl.Expression) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s argument", argument),
		Detail:   fmt.Sprintf("Ephemeral values, or values derived from ephemeral values, cannot be used as %s arguments. If used, the ephemeral value could be exposed as a resource instance key.", argument),
		Subject:  expr.Range().Ptr(),
	}
}

// EphemeralOutputNotAllowed is the error for an output not declared
// ephemeral whose value is, in OpenTofu's words. A root output is
// recorded, and a child's is read by whatever its caller passes it to;
// only an output declared ephemeral may carry a value that must not
// outlive the run. A root module output can never be ephemeral:
// ephemeralasnull() keeps what may be recorded.
func EphemeralOutputNotAllowed(name string, subject hcl.Range) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Output does not allow ephemeral value",
		Detail:   "The value that was generated for the output is ephemeral, but it is not configured to allow one.",
		Subject:  subject.Ptr(),
	}
}

// UndeclaredSensitiveOutput is the error for a root module output whose
// value holds something sensitive while the output does not say so, in
// OpenTofu's words, at the output block. Root outputs leave the
// configuration — printed by apply and output, read by other workspaces
// through terraform_remote_state — so exporting a secret must be a
// decision the author writes down.
func UndeclaredSensitiveOutput(declRange hcl.Range) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Output refers to sensitive values",
		Detail: "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, " +
			"Terrane requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\n" +
			"If you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
		Subject: declRange.Ptr(),
	}
}

// EphemeralVariableNotAllowed is the error for a module call passing an
// ephemeral value to a variable not declared ephemeral, in OpenTofu's
// words: the child may use the variable where ephemeral values may not go.
func EphemeralVariableNotAllowed(name string, subject hcl.Range) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Variable does not allow ephemeral value",
		Detail:   fmt.Sprintf("The value used for the variable %q is ephemeral, but it is not configured to allow one.", name),
		Subject:  subject.Ptr(),
	}
}
