package discovery

import (
	"fmt"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
)

// Constraints is a provider version constraint as written in
// required_providers, such as "~> 5.0, != 5.3.1".
type Constraints = constraints.IntersectionSpec

// ParseConstraints parses a version constraint string; "" allows any
// version.
func ParseConstraints(raw string) (Constraints, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, nil
	}
	spec, err := constraints.ParseRubyStyleMulti(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid version constraint %q: %w", raw, err)
	}
	return spec, nil
}

// ErrNoMatchingVersion means no available version meets the constraints.
type ErrNoMatchingVersion struct {
	Constraints Constraints
	Available   versions.List
}

func (e *ErrNoMatchingVersion) Error() string {
	if len(e.Available) == 0 {
		return "no versions are available"
	}
	names := make([]string, len(e.Available))
	for i, version := range e.Available {
		names[i] = version.String()
	}
	return fmt.Sprintf("no available version meets the constraint %q; available versions: %s",
		constraintsString(e.Constraints), strings.Join(names, ", "))
}

// constraintsString renders constraints the way required_providers
// writes them, such as "~> 5.0, != 5.3.1".
func constraintsString(spec Constraints) string {
	if len(spec) == 0 {
		return ">= 0.0.0"
	}
	parts := make([]string, len(spec))
	for i, selection := range spec {
		parts[i] = operatorString(selection.Operator) + versionSpecString(selection.Boundary)
	}
	return strings.Join(parts, ", ")
}

func operatorString(op constraints.SelectionOp) string {
	switch op {
	case constraints.OpGreaterThan:
		return "> "
	case constraints.OpLessThan:
		return "< "
	case constraints.OpGreaterThanOrEqual:
		return ">= "
	case constraints.OpLessThanOrEqual:
		return "<= "
	case constraints.OpNotEqual:
		return "!= "
	case constraints.OpGreaterThanOrEqualPatchOnly, constraints.OpGreaterThanOrEqualMinorOnly:
		return "~> "
	default:
		return ""
	}
}

// versionSpecString prints a boundary without its unconstrained parts:
// "5.0", not "5.0.*".
func versionSpecString(boundary constraints.VersionSpec) string {
	text := boundary.Major.String()
	if !boundary.Minor.Unconstrained {
		text += "." + boundary.Minor.String()
		if !boundary.Patch.Unconstrained {
			text += "." + boundary.Patch.String()
		}
	}
	if boundary.Prerelease != "" {
		text += "-" + boundary.Prerelease
	}
	return text
}

// SelectVersion returns the newest version in available that meets the
// constraints. Prereleases are chosen only when the constraints name them
// exactly, as in "= 2.0.0-beta1": ">= 1.0" never selects 2.0.0-beta1.
func SelectVersion(available versions.List, spec Constraints) (versions.Version, error) {
	allowed := versions.MeetingConstraints(spec)
	newest := available.NewestInSet(allowed)
	if newest == versions.Unspecified {
		sorted := append(versions.List(nil), available...)
		sorted.Sort()
		return versions.Unspecified, &ErrNoMatchingVersion{Constraints: spec, Available: sorted}
	}
	return newest, nil
}
