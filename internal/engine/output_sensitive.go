package engine

import (
	"fmt"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// undeclaredSensitiveOutput is the error for a root module output whose value
// holds something sensitive while the output does not say so. Root outputs
// leave the configuration — printed by apply and output, read by other
// workspaces through terraform_remote_state — so exporting a secret must be
// a decision the author writes down, as Terraform and OpenTofu require.
func undeclaredSensitiveOutput(output *config.Output) diags.Diagnostic {
	subject := output.DeclRange
	if output.Expr != nil {
		subject = output.Expr.Range()
	}
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Output refers to sensitive values",
		Detail: fmt.Sprintf("To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, "+
			"Terrane requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\n"+
			"If you do intend to export this data, annotate output %q as sensitive by adding the following argument:\n    sensitive = true", output.Name),
		Subject: subject.Ptr(),
	}
}

// undeclaredEphemeralOutput is the error for an output whose value is
// ephemeral while the output is not declared so, in OpenTofu's words. A
// root output is recorded, and a child's is read by whatever its caller
// passes it to; only an output declared ephemeral may carry a value that
// must not outlive the run. A root module output can never be ephemeral:
// ephemeralasnull() keeps what may be recorded.
func undeclaredEphemeralOutput(output *config.Output) diags.Diagnostic {
	subject := output.DeclRange
	if output.Expr != nil {
		subject = output.Expr.Range()
	}
	return diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Output does not allow ephemeral value",
		Detail: fmt.Sprintf("The value that was generated for the output is ephemeral, but it is not configured to allow one. "+
			"In a child module, declare output %q with ephemeral = true; in the root module, which cannot have ephemeral outputs, wrap the value in ephemeralasnull().", output.Name),
		Subject: subject.Ptr(),
	}
}
