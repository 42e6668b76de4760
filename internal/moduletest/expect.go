package moduletest

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

// checkableKind is the kind of object a custom condition belongs to.
type checkableKind int

const (
	checkableNone checkableKind = iota
	checkableVariable
	checkableOutput
	checkableCheck
	checkableResource
)

// expectedFailure is one entry of a run's expect_failures: a checkable
// object of the root module whose custom conditions must fail.
type expectedFailure struct {
	kind checkableKind
	// addr is the object as diagnostics name it: var.x, output.x,
	// check.x, a resource (every instance) or one resource instance.
	addr  string
	whole bool // a resource without an instance key
	rng   hcl.Range
	seen  bool
}

func decodeExpectFailures(attr *hcl.Attribute) ([]hcl.Traversal, diags.Diagnostics) {
	list, hd := traversalList(attr)
	return list, diags.Diagnostics{}.Append(hd)
}

// parseExpectedFailures reads expect_failures, refusing references to
// objects that have no custom conditions of their own.
func parseExpectedFailures(traversals []hcl.Traversal) ([]*expectedFailure, diags.Diagnostics) {
	var out []*expectedFailure
	var ds diags.Diagnostics
	for _, t := range traversals {
		e, ed := parseExpectedFailure(t)
		ds = ds.Append(ed)
		if e != nil {
			out = append(out, e)
		}
	}
	return out, ds
}

func parseExpectedFailure(t hcl.Traversal) (*expectedFailure, diags.Diagnostics) {
	rng := t.SourceRange()
	invalid := func(what string) diags.Diagnostics {
		return diags.Diagnostics{{Severity: diags.Error, Summary: "Invalid `expect_failures` reference",
			Detail:  fmt.Sprintf("You cannot expect failures from %s. You can only expect failures from checkable objects such as input variables, output values, check blocks, managed resources and data sources.", what),
			Subject: rng.Ptr()}}
	}
	switch t.RootName() {
	case "output", "check":
		name, ok := attrStep(t, 1)
		if !ok || len(t) != 2 {
			return nil, invalid(renderTraversal(t))
		}
		kind := checkableOutput
		if t.RootName() == "check" {
			kind = checkableCheck
		}
		return &expectedFailure{kind: kind, addr: t.RootName() + "." + name, rng: rng}, nil
	}
	ref, hd := addrs.ParseRef(t)
	if hd.HasErrors() {
		return nil, diags.Diagnostics{}.Append(hd)
	}
	if len(ref.Remaining) > 0 {
		return nil, invalid(renderTraversal(t))
	}
	switch s := ref.Subject.(type) {
	case addrs.InputVariable:
		return &expectedFailure{kind: checkableVariable, addr: s.String(), rng: rng}, nil
	case addrs.Resource:
		return &expectedFailure{kind: checkableResource, addr: s.String(), whole: true, rng: rng}, nil
	case addrs.ResourceInstance:
		return &expectedFailure{kind: checkableResource, addr: s.String(), rng: rng}, nil
	}
	return nil, invalid(ref.Subject.String())
}

func attrStep(t hcl.Traversal, i int) (string, bool) {
	if len(t) <= i {
		return "", false
	}
	step, ok := t[i].(hcl.TraverseAttr)
	return step.Name, ok
}

func renderTraversal(t hcl.Traversal) string {
	var b strings.Builder
	for i, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			if i > 0 {
				b.WriteString(addrsKeyString(s))
			}
		}
	}
	return b.String()
}

func addrsKeyString(s hcl.TraverseIndex) string {
	key, err := addrs.ParseInstanceKey(s.Key)
	if err != nil {
		return "[?]"
	}
	return key.String()
}

// failedCheckOf tells which checkable object a diagnostic reports a failed
// condition of, and whether that object is in the root module: only those
// can be expected to fail. A check block's findings count whatever their
// kind: a failed assertion, one known only after apply, and an error its
// scoped data source raised (see checkFinding).
func failedCheckOf(d diags.Diagnostic) (checkableKind, bool) {
	addr := d.Object
	root := !strings.HasPrefix(addr, "module.")
	if checkFinding(d) {
		return checkableCheck, root
	}
	if !d.FailedCheck {
		return checkableNone, false
	}
	switch {
	case strings.HasPrefix(addr, "var.") || strings.Contains(addr, ".var."):
		return checkableVariable, root
	case strings.HasPrefix(addr, "output.") || strings.Contains(addr, ".output."):
		return checkableOutput, root
	}
	return checkableResource, root
}

// checkFinding reports whether d is what a check block found and OpenTofu's
// test runner treats as the check's failure: an assertion that failed or
// is known only after apply, or an error of its scoped data source (a
// warning that was a warning from the start is not).
func checkFinding(d diags.Diagnostic) bool {
	if !d.FromCheckBlock || !isCheckAddr(d.Object) {
		return false
	}
	return d.FailedCheck || d.DemotedError || strings.HasPrefix(d.Summary, "Check block assertion")
}

func isCheckAddr(addr string) bool {
	return strings.HasPrefix(addr, "check.") || strings.Contains(addr, ".check.")
}

// matches reports whether the failure d reports is the one e expects.
func (e *expectedFailure) matches(kind checkableKind, d diags.Diagnostic) bool {
	if e.kind != kind {
		return false
	}
	return d.Object == e.addr || (e.whole && strings.HasPrefix(d.Object, e.addr+"["))
}

// expectFailures goes through the diagnostics of a plan or apply: it drops
// the failures expect_failures names (noting that they happened), turns
// check block failures nobody expected from warnings into errors so the
// run fails, and adds an error for every expected failure that did not
// happen, as OpenTofu's test runner does.
func expectFailures(expected []*expectedFailure, in diags.Diagnostics) diags.Diagnostics {
	var out diags.Diagnostics
	for _, d := range in {
		kind, root := failedCheckOf(d)
		if kind == checkableNone {
			out = append(out, d)
			continue
		}
		if kind != checkableCheck && d.Severity == diags.Warning {
			out = append(out, d)
			continue
		}
		if kind == checkableCheck {
			// Reported as warnings, they fail the run.
			d.Severity, d.DemotedError = diags.Error, false
		}
		if root && markExpected(expected, kind, d) {
			continue
		}
		out = append(out, d)
	}
	for _, e := range expected {
		if !e.seen {
			out = append(out, diags.Diagnostic{Severity: diags.Error, Summary: "Missing expected failure",
				Detail:  fmt.Sprintf("The checkable object, %s, was expected to report an error but did not.", e.addr),
				Subject: e.rng.Ptr()})
		}
	}
	return out
}

func markExpected(expected []*expectedFailure, kind checkableKind, d diags.Diagnostic) bool {
	for _, e := range expected {
		if e.matches(kind, d) {
			e.seen = true
			return true
		}
	}
	return false
}

// expectedVariableFailures adds, to the plan diagnostics of an apply run,
// a warning for each expected variable failure that stopped the plan: the
// failure was expected, but the apply could not run, so the run fails
// (OpenTofu's checkProblematicPlanErrors).
func expectedVariableFailures(expected []*expectedFailure, planDiags diags.Diagnostics) diags.Diagnostics {
	out := planDiags
	for _, d := range planDiags {
		kind, root := failedCheckOf(d)
		if kind != checkableVariable || !root || d.Severity != diags.Error {
			continue
		}
		for _, e := range expected {
			if e.matches(kind, d) {
				out = append(out, diags.Warnf("Invalid Variable in test file",
					"Variable %s, has an invalid value within the test. Although this was an expected failure, it has meant the apply stage was unable to run so the overall test will fail.", d.Object))
				break
			}
		}
	}
	return out
}
