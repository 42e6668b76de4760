package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// checkConditionRefersToSomething reports a condition that refers to
// nothing: its result is fixed when it is written, so it checks nothing
// about the infrastructure or the values given.
func checkConditionRefersToSomething(blockType string, condition hcl.Expression) hcl.Diagnostics {
	if condition == nil || len(condition.Variables()) > 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s expression", blockType),
		Detail:   "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
		Subject:  condition.Range().Ptr(),
	}}
}

// checkValidationRefersToVariable reports a validation condition that does
// not use the variable it belongs to. Other objects of the module may be
// referred to as well, but a rule that never looks at var.NAME could not
// tell a good value from a bad one.
func checkValidationRefersToVariable(variableName string, condition hcl.Expression) hcl.Diagnostics {
	if condition == nil {
		return nil
	}
	for _, traversal := range condition.Variables() {
		ref, diags := addrs.ParseRef(traversal)
		if diags.HasErrors() {
			continue
		}
		if variable, ok := ref.Subject.(addrs.InputVariable); ok && variable.Name == variableName {
			return nil
		}
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid variable validation condition",
		Detail:   fmt.Sprintf("The condition for variable %q must refer to var.%s in order to test incoming values.", variableName, variableName),
		Subject:  condition.Range().Ptr(),
	}}
}
