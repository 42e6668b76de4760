package engine

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/config"
)

// outputSubject is where diagnostics about an output's value point: its
// expression.
func outputSubject(output *config.Output) hcl.Range {
	if output.Expr != nil {
		return output.Expr.Range()
	}
	return output.DeclRange
}
