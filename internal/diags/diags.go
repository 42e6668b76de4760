package diags

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Severity says whether a diagnostic stops the operation.
type Severity int

const (
	// Error means the operation failed.
	Error Severity = iota + 1
	// Warning means the operation went on but the user should look.
	Warning
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "Error"
	case Warning:
		return "Warning"
	default:
		return "Invalid"
	}
}

// Diagnostic is one problem found while doing something for the user.
type Diagnostic struct {
	Severity Severity
	Summary  string
	Detail   string

	// Subject is the source range the diagnostic is about, if known.
	Subject *hcl.Range
	// Context is a wider range around Subject to show, if known.
	Context *hcl.Range
	// Address names the object the diagnostic is about (a provider, a
	// resource instance) where OpenTofu names it, under the summary as
	// "with ADDRESS,": for what a provider reported about a block.
	Address string
	// Object is the address of the object a diagnostic is about where it
	// is known but not shown: the checkable object whose condition failed
	// (see FailedCheck), which `terrane test` matches expect_failures
	// against.
	Object string
	// AttributePath is the attribute within Address's object, if any.
	AttributePath cty.Path
	// Standalone marks a diagnostic about no object and no text, which is
	// shown as it is, never given the address or block of what raised
	// it: OpenTofu's plain errors from its built-in provider.
	Standalone bool
	// FromCheckBlock marks what a check block reported (its assertions and
	// its scoped data source): applying a plan evaluates check blocks
	// again, so the plan's reports are not shown twice.
	FromCheckBlock bool
	// DemotedError marks an error reported as a warning because a check
	// block's scoped data source raised it (Object names the check):
	// `terrane test` makes it an error again, as OpenTofu's test runner
	// does.
	DemotedError bool
	// FailedCheck marks the diagnostic that reports a custom condition of
	// the checkable object named by Address failing: a precondition, a
	// postcondition, a variable validation or a check block assertion
	// (not an error evaluating one). `terrane test` matches a run's
	// expect_failures against it.
	FailedCheck bool
	// Sourceless marks what OpenTofu reports without a source range or an
	// object's address, though it arises while working on one: a run
	// attaches neither to it.
	Sourceless bool

	// Expression and EvalContext are the expression whose evaluation
	// raised the diagnostic and the context it was evaluated in, when it
	// came from evaluating one: renderers list the values of the
	// expression's references under the source snippet.
	Expression  hcl.Expression
	EvalContext *hcl.EvalContext
	// Extra is more about the diagnostic for renderers: HCL's
	// information about a failed function call, or one of the markers in
	// extra.go (caused by unknown or sensitive values, not to be
	// consolidated).
	Extra any
}

// Diagnostics is a list of diagnostics, usually collected through Append.
type Diagnostics []Diagnostic

// Errorf builds an error diagnostic.
func Errorf(summary, detailFormat string, args ...any) Diagnostic {
	return Diagnostic{Severity: Error, Summary: summary, Detail: fmt.Sprintf(detailFormat, args...)}
}

// Warnf builds a warning diagnostic.
func Warnf(summary, detailFormat string, args ...any) Diagnostic {
	return Diagnostic{Severity: Warning, Summary: summary, Detail: fmt.Sprintf(detailFormat, args...)}
}

// Append adds diagnostics of any supported kind: Diagnostic, Diagnostics,
// *hcl.Diagnostic, hcl.Diagnostics, or an error (which becomes an error
// diagnostic unless it wraps diagnostics). Nil values are ignored.
func (d Diagnostics) Append(items ...any) Diagnostics {
	for _, item := range items {
		switch v := item.(type) {
		case nil:
		case Diagnostic:
			d = append(d, v)
		case Diagnostics:
			d = append(d, v...)
		case *hcl.Diagnostic:
			if v != nil {
				d = append(d, FromHCL(v))
			}
		case hcl.Diagnostics:
			for _, hd := range v {
				d = append(d, FromHCL(hd))
			}
		case error:
			var wrapped *Err
			if errors.As(v, &wrapped) {
				d = append(d, wrapped.Diagnostics...)
				continue
			}
			d = append(d, Diagnostic{Severity: Error, Summary: v.Error()})
		default:
			panic(fmt.Sprintf("diags.Append: unsupported %T", item))
		}
	}
	return d
}

// FromHCL converts an HCL diagnostic.
func FromHCL(hd *hcl.Diagnostic) Diagnostic {
	sev := Error
	if hd.Severity == hcl.DiagWarning {
		sev = Warning
	}
	return Diagnostic{Severity: sev, Summary: hd.Summary, Detail: hd.Detail, Subject: hd.Subject, Context: hd.Context,
		Expression: hd.Expression, EvalContext: hd.EvalContext, Extra: hd.Extra}
}

// ToHCL converts the diagnostics to HCL's, for code that reports through
// the configuration loader.
func (d Diagnostics) ToHCL() hcl.Diagnostics {
	out := make(hcl.Diagnostics, 0, len(d))
	for _, diag := range d {
		severity := hcl.DiagWarning
		if diag.Severity == Error {
			severity = hcl.DiagError
		}
		out = append(out, &hcl.Diagnostic{Severity: severity, Summary: diag.Summary, Detail: diag.Detail, Subject: diag.Subject, Context: diag.Context})
	}
	return out
}

// Capitalize starts text, such as an error's message made into a
// diagnostic's sentence, with a capital letter.
func Capitalize(text string) string {
	if text == "" {
		return text
	}
	return strings.ToUpper(text[:1]) + text[1:]
}

// HasErrors reports whether any diagnostic is an error.
func (d Diagnostics) HasErrors() bool {
	for _, diag := range d {
		if diag.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns the errors among d as an error (nil if there are none); the
// diagnostics stay reachable through errors.As with *Err.
func (d Diagnostics) Err() error {
	if !d.HasErrors() {
		return nil
	}
	return &Err{Diagnostics: d}
}

// WithAddress returns a copy of d in which every diagnostic without an
// address or a source range gets addr: what a provider or a step of a run
// says about an object, rather than about a piece of its configuration's
// text (OpenTofu names the object only for those, under the summary).
// Standalone and Sourceless diagnostics are left as they are.
func (d Diagnostics) WithAddress(addr string) Diagnostics {
	out := make(Diagnostics, len(d))
	for i, diag := range d {
		if diag.Address == "" && diag.Subject == nil && !diag.Standalone && !diag.Sourceless {
			diag.Address = addr
		}
		out[i] = diag
	}
	return out
}

// Err carries diagnostics through an error return.
type Err struct {
	Diagnostics Diagnostics
}

func (e *Err) Error() string {
	var b strings.Builder
	for _, diag := range e.Diagnostics {
		if diag.Severity != Error {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(diag.String())
	}
	return b.String()
}

// String renders the diagnostic on one line, for logs and errors.
func (diag Diagnostic) String() string {
	var b strings.Builder
	if diag.Subject != nil {
		fmt.Fprintf(&b, "%s:%d,%d: ", diag.Subject.Filename, diag.Subject.Start.Line, diag.Subject.Start.Column)
	}
	if diag.Address != "" {
		fmt.Fprintf(&b, "%s: ", diag.Address)
	}
	b.WriteString(diag.Summary)
	if len(diag.AttributePath) > 0 {
		fmt.Fprintf(&b, " (at %s)", FormatPath(diag.AttributePath))
	}
	if diag.Detail != "" {
		b.WriteString(": ")
		b.WriteString(diag.Detail)
	}
	return b.String()
}

// FormatPath renders an attribute path the way Terraform shows it in
// messages: attr.nested[0]["key"].
func FormatPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case cty.IndexStep:
			switch {
			case s.Key.IsNull() || !s.Key.IsKnown():
				b.WriteString("[?]")
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			default:
				b.WriteString("[?]")
			}
		}
	}
	return b.String()
}
