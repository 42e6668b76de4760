package depsfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"

	"github.com/terrane/terrane/internal/plugin/discovery"
)

// ConstraintsString returns the canonical text of version constraints, the
// form the lock file records and requires: each term once, abbreviated
// versions filled with zeros (">= 2" is ">= 2.0.0"), sorted by boundary and
// then by operator, joined with ", ". Constraints gathered from several
// modules therefore produce the same text whatever order the modules were
// read in, and the same text Terraform and OpenTofu write.
func ConstraintsString(spec discovery.Constraints) string {
	terms := make([]constraints.SelectionSpec, 0, len(spec))
	for _, sel := range spec {
		term := constraints.SelectionSpec{Operator: sel.Operator, Boundary: sel.Boundary.ConstrainToZero()}
		if !slices.Contains(terms, term) {
			terms = append(terms, term)
		}
	}
	slices.SortFunc(terms, compareTerms)
	parts := make([]string, len(terms))
	for i, term := range terms {
		parts[i] = termString(term)
	}
	return strings.Join(parts, ", ")
}

// operatorOrder puts lower bounds before upper bounds for terms with the
// same boundary version, as a person would write them.
var operatorOrder = map[constraints.SelectionOp]int{
	constraints.OpGreaterThan:                 1,
	constraints.OpGreaterThanOrEqual:          2,
	constraints.OpEqual:                       3,
	constraints.OpGreaterThanOrEqualPatchOnly: 4,
	constraints.OpGreaterThanOrEqualMinorOnly: 5,
	constraints.OpLessThanOrEqual:             6,
	constraints.OpLessThan:                    7,
	constraints.OpNotEqual:                    8,
}

var operatorSymbol = map[constraints.SelectionOp]string{
	constraints.OpGreaterThan:                 "> ",
	constraints.OpGreaterThanOrEqual:          ">= ",
	constraints.OpEqual:                       "",
	constraints.OpGreaterThanOrEqualPatchOnly: "~> ",
	constraints.OpGreaterThanOrEqualMinorOnly: "~> ",
	constraints.OpLessThanOrEqual:             "<= ",
	constraints.OpLessThan:                    "< ",
	constraints.OpNotEqual:                    "!= ",
}

func compareTerms(a, b constraints.SelectionSpec) int {
	if c := compareBoundaries(a.Boundary, b.Boundary); c != 0 {
		return c
	}
	return operatorOrder[a.Operator] - operatorOrder[b.Operator]
}

// compareBoundaries orders boundaries by version precedence; equal
// versions differing only in build metadata are ordered by that metadata,
// so the order is total.
func compareBoundaries(a, b constraints.VersionSpec) int {
	va, vb := boundaryVersion(a), boundaryVersion(b)
	switch {
	case va.Same(vb):
		switch {
		case va.Metadata.Raw() == vb.Metadata.Raw():
			return 0
		case va.Metadata.LessThan(vb.Metadata):
			return -1
		default:
			return 1
		}
	case va.LessThan(vb):
		return -1
	default:
		return 1
	}
}

func boundaryVersion(spec constraints.VersionSpec) versions.Version {
	return versions.Version{
		Major:      spec.Major.Num,
		Minor:      spec.Minor.Num,
		Patch:      spec.Patch.Num,
		Prerelease: versions.VersionExtra(spec.Prerelease),
		Metadata:   versions.VersionExtra(spec.Metadata),
	}
}

func termString(term constraints.SelectionSpec) string {
	symbol, known := operatorSymbol[term.Operator]
	if !known {
		symbol = string(term.Operator) + " "
	}
	var b strings.Builder
	b.WriteString(symbol)
	boundary := term.Boundary
	// "~> 2.1" allows any 2.x from 2.1 and "~> 2.1.0" any 2.1.x: the
	// number of components is the meaning, so minor-only terms keep two.
	if term.Operator == constraints.OpGreaterThanOrEqualMinorOnly {
		fmt.Fprintf(&b, "%d.%d", boundary.Major.Num, boundary.Minor.Num)
	} else {
		fmt.Fprintf(&b, "%d.%d.%d", boundary.Major.Num, boundary.Minor.Num, boundary.Patch.Num)
	}
	if boundary.Prerelease != "" {
		b.WriteString("-" + boundary.Prerelease)
	}
	if boundary.Metadata != "" {
		b.WriteString("+" + boundary.Metadata)
	}
	return b.String()
}
