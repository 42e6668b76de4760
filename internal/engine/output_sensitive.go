package engine

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// undeclaredSensitiveOutput is the error for a root module output whose value
// holds something sensitive while the output does not say so. Root outputs
// leave the configuration — printed by apply and output, read by other
// workspaces through terraform_remote_state — so exporting a secret must be
// a decision the author writes down, as Terraform and OpenTofu require.
func undeclaredSensitiveOutput(output *config.Output) diags.Diagnostic {
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Output refers to sensitive values",
		Detail: "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, " +
			"Terrane requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\n" +
			"If you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
		Subject: output.DeclRange.Ptr(),
	}
}

// outputSubject is where diagnostics about an output's value point: its
// expression.
func outputSubject(output *config.Output) hcl.Range {
	if output.Expr != nil {
		return output.Expr.Range()
	}
	return output.DeclRange
}
