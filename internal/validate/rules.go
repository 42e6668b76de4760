package validate

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
)

// RuleOutcome is the result of one check rule (a validation, a pre- or
// postcondition, a check block's assertion): its status and, when it
// failed, its error message.
type RuleOutcome struct {
	Status  plans.CheckStatus
	Message string
	// Ctx is the context the condition was evaluated in: the failure's
	// diagnostic shows the values of the condition's references.
	Ctx *hcl.EvalContext
	// SensitiveMessage is set when the error message refers to sensitive
	// values, EphemeralMessage when it was built from ephemeral ones: the
	// message is then never shown nor recorded, and Message is empty.
	SensitiveMessage bool
	EphemeralMessage bool
}

// EvalRule evaluates a condition and its error message. A condition that
// cannot be known yet (during validation, or during planning one reading
// values known only after apply) is CheckUnknown; a condition that cannot
// be evaluated at all is CheckError, with the reason in ds. The message is
// evaluated whatever the condition says, as OpenTofu does, so a message
// that cannot work is reported before the day it is needed.
func EvalRule(scope *lang.Scope, rule *config.CheckRule) (RuleOutcome, diags.Diagnostics) {
	var ds diags.Diagnostics
	cond, ctx, hd := scope.EvalExprIn(rule.Condition, cty.Bool)
	ds = ds.Append(hd)
	out := RuleOutcome{Status: plans.CheckFail, Ctx: ctx}
	msgVal, msgDiags := scope.EvalExpr(rule.ErrorMessage, cty.String)
	ds = ds.Append(msgDiags)
	switch {
	case msgDiags.HasErrors() || !msgVal.IsKnown():
	case marks.Contains(msgVal, marks.Sensitive):
		out.SensitiveMessage = true
	case marks.Contains(msgVal, marks.Ephemeral):
		out.EphemeralMessage = true
	case msgVal.IsNull():
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid error message",
			Detail: "Unsuitable value for error message: must not be null.", Subject: rule.ErrorMessage.Range().Ptr()})
	default:
		msgVal, _ = msgVal.UnmarkDeep()
		out.Message = strings.TrimSpace(msgVal.AsString())
	}
	if hd.HasErrors() {
		return RuleOutcome{Status: plans.CheckError}, ds
	}
	cond, _ = cond.UnmarkDeep()
	switch {
	case !cond.IsKnown():
		return RuleOutcome{Status: plans.CheckUnknown, Ctx: out.Ctx}, ds
	case cond.IsNull():
		return RuleOutcome{Status: plans.CheckError}, ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid condition result",
			Detail: "Condition expression must return either true or false, not null.", Subject: rule.Condition.Range().Ptr(),
			Expression: rule.Condition, EvalContext: out.Ctx})
	case cond.True():
		out.Status = plans.CheckPass
	}
	return out, ds
}

// WorseStatus is the status of a checkable object with outcomes a and b:
// an error outranks a failure, which outranks not knowing, which outranks
// passing.
func WorseStatus(a, b plans.CheckStatus) plans.CheckStatus {
	rank := func(s plans.CheckStatus) int {
		switch s {
		case plans.CheckError:
			return 3
		case plans.CheckFail:
			return 2
		case plans.CheckUnknown:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// VariableValidations checks the validation rules of decl, whose value
// scope gives, as OpenTofu does: the first rule that fails is reported (at
// subject, the declaration or the module call's argument), and none after
// it is evaluated. addr names the variable instance. It returns the
// variable's check status and the failure messages to record.
func VariableValidations(scope *lang.Scope, decl *config.Variable, addr string, subject hcl.Range) (plans.CheckStatus, []string, diags.Diagnostics) {
	var ds diags.Diagnostics
	status := plans.CheckPass
	var failures []string
	for _, rule := range decl.Validations {
		if ds.HasErrors() {
			break
		}
		out, rds := EvalRule(scope, rule)
		ds = ds.Append(rds)
		status = WorseStatus(status, out.Status)
		if out.Status != plans.CheckFail {
			continue
		}
		message := out.Message
		switch {
		case out.SensitiveMessage:
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Error message refers to sensitive values",
				Detail:  "The error expression used to explain this condition refers to sensitive values. Terrane will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
				Subject: rule.ErrorMessage.Range().Ptr(), Object: addr})
			message = "The error message included a sensitive value, so it will not be displayed."
		case out.EphemeralMessage:
			message = "The error expression used to explain this condition refers to ephemeral values. Terrane will not display the resulting message.\n\n" +
				"You can correct this by removing references to ephemeral values or by utilizing the builtin ephemeralasnull() function."
		case message == "":
			message = "Failed to evaluate condition error message."
		}
		if !out.EphemeralMessage {
			failures = append(failures, message)
		}
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid value for variable",
			Detail:  message + "\n\nThis was checked by the validation rule at " + rule.DeclRange.String() + ".",
			Subject: subject.Ptr(), Object: addr, FailedCheck: true,
			Expression: rule.Condition, EvalContext: out.Ctx})
	}
	return status, failures, ds
}
