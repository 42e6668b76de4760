package diags

// This file holds the markers a diagnostic's Extra may carry, which change
// how it is shown. Each is an interface so that a value can carry several
// (HCL's function call information alongside a cause, for one), found
// through ExtraAs, which also looks inside values that wrap another.

// ExtraUnwrapper is an Extra value that wraps another.
type ExtraUnwrapper interface {
	UnwrapDiagnosticExtra() any
}

// ExtraAs finds, in extra or in what it wraps, a value of type T.
func ExtraAs[T any](extra any) (T, bool) {
	for extra != nil {
		if v, ok := extra.(T); ok {
			return v, true
		}
		unwrapper, ok := extra.(ExtraUnwrapper)
		if !ok {
			break
		}
		extra = unwrapper.UnwrapDiagnosticExtra()
	}
	var zero T
	return zero, false
}

// BecauseUnknown marks a diagnostic caused by values not known until
// apply: under its snippet, the references the expression holds are
// described as "known only after apply" (otherwise unknown values are left
// out, lest readers think they caused a problem they did not).
type BecauseUnknown interface {
	DiagnosticCausedByUnknown() bool
}

// BecauseConfidential marks a diagnostic caused by sensitive or ephemeral
// values: under its snippet, such references are said to have a
// sensitive (or ephemeral) value, never what it is.
type BecauseConfidential interface {
	DiagnosticCausedByConfidentialValues() bool
}

// CausedByUnknown is the Extra of a diagnostic caused by unknown values.
type CausedByUnknown bool

// DiagnosticCausedByUnknown implements BecauseUnknown.
func (c CausedByUnknown) DiagnosticCausedByUnknown() bool { return bool(c) }

// CausedByConfidential is the Extra of a diagnostic caused by sensitive or
// ephemeral values.
type CausedByConfidential bool

// DiagnosticCausedByConfidentialValues implements BecauseConfidential.
func (c CausedByConfidential) DiagnosticCausedByConfidentialValues() bool { return bool(c) }

// ConsolidationKeyer is an Extra that narrows which diagnostics of the same
// summary are shown as one: only those whose keys are equal too (each
// deprecated object's warnings, for one, are grouped apart).
type ConsolidationKeyer interface {
	ExtraInfoKey() string
}

// CausedByUnknownValues reports whether d is marked as caused by unknown
// values.
func (d Diagnostic) CausedByUnknownValues() bool {
	m, ok := ExtraAs[BecauseUnknown](d.Extra)
	return ok && m.DiagnosticCausedByUnknown()
}

// CausedByConfidentialValues reports whether d is marked as caused by
// sensitive or ephemeral values.
func (d Diagnostic) CausedByConfidentialValues() bool {
	m, ok := ExtraAs[BecauseConfidential](d.Extra)
	return ok && m.DiagnosticCausedByConfidentialValues()
}

// ConsolidationKey is what diagnostics must share, besides their
// severity, to be shown as one: the summary, and the Extra's key.
func (d Diagnostic) ConsolidationKey() string {
	key := d.Summary
	if k, ok := d.Extra.(ConsolidationKeyer); ok {
		key += k.ExtraInfoKey()
	}
	return key
}

// DeprecationWarning is the Extra of a warning about a deprecated module
// output or variable: a command shows the warnings of one cause once (a
// plan and the apply after it both find it) and hides them as
// -deprecation=module: says. key names the cause; fromRemoteModule is
// set for a module from a source other than a local path.
type DeprecationWarning interface {
	DeprecationCause() (key string, fromRemoteModule bool)
}
