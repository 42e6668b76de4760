package lang

// These mark what caused an evaluation diagnostic, in its Extra: the
// renderers (diags.BecauseUnknown, diags.BecauseConfidential) then
// describe the unknown, sensitive or ephemeral values of the expression's
// references under its snippet, which they otherwise leave out.

// causedByUnknown marks a diagnostic caused by values not known until
// apply.
type causedByUnknown struct{}

func (causedByUnknown) DiagnosticCausedByUnknown() bool { return true }

// causedByConfidential marks a diagnostic caused by sensitive or
// ephemeral values.
type causedByConfidential struct{}

func (causedByConfidential) DiagnosticCausedByConfidentialValues() bool { return true }
