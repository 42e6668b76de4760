package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/terrane/terrane/internal/lang/marks"
)

// Unknowns says what EvalCount, EvalForEach and EvalEnabled do with a
// value that is not known yet.
type Unknowns struct {
	// Allow returns known=false without a diagnostic: validation, which
	// checks what it can.
	Allow bool
	// Excludable is the address of the object being expanded. The error
	// for an unknown value suggests -exclude with it, as OpenTofu does,
	// or -target when it is empty.
	Excludable string
}

// excludeOption is the command-line option the unknown-value errors
// suggest, quoted for a POSIX shell when the address needs it.
func (u Unknowns) excludeOption() string {
	option := "-exclude=" + u.Excludable
	for _, r := range option {
		if !(r == '-' || r == '=' || r == '.' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "'" + strings.ReplaceAll(option, "'", `'\''`) + "'"
		}
	}
	return option
}

// EvalCount evaluates a `count` argument. known is false when the value is
// unknown and unknowns.Allow is set; otherwise an unknown count is an error
// telling the user how to converge. A sensitive count is allowed, as in
// OpenTofu: how many instances exist is not the secret.
func (s *Scope) EvalCount(expr hcl.Expression, unknowns Unknowns) (count int, known bool, diags hcl.Diagnostics) {
	val, diags := s.EvalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return 0, false, diags
	}
	if marks.Contains(val, marks.Ephemeral) {
		return 0, false, diags.Append(ephemeralArgumentDiag("count", expr))
	}
	val, _ = val.Unmark()
	invalid := func(detail string) (int, bool, hcl.Diagnostics) {
		return 0, false, diags.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid count argument", Detail: detail, Subject: expr.Range().Ptr()})
	}
	switch {
	case val.IsNull():
		return invalid(`The given "count" argument value is null. An integer is required.`)
	case !val.IsKnown() && unknowns.Allow:
		return 0, false, diags
	case !val.IsKnown():
		suggestion := "To work around this, use the -target option to first apply only the resources that the count depends on, and then apply normally to converge."
		if unknowns.Excludable != "" {
			suggestion = "To work around this, use the planning option " + unknowns.excludeOption() + " to first apply without this object, and then apply normally to converge."
		}
		return invalid("The \"count\" value depends on resource attributes that cannot be determined until apply, so Terrane cannot predict how many instances will be created.\n\n" + suggestion)
	}
	number, err := convert.Convert(val, cty.Number)
	if err != nil {
		return invalid(fmt.Sprintf(`The given "count" argument value is unsuitable: %s.`, err))
	}
	if err := gocty.FromCtyValue(number, &count); err != nil {
		return invalid(`The given "count" argument value is unsuitable: value must be a whole number.`)
	}
	if count < 0 {
		return invalid(`The given "count" argument value is unsuitable: must be greater than or equal to zero.`)
	}
	return count, true, diags
}

// The first paragraphs of OpenTofu's explanation of an unknown for_each,
// by the kind of value given.
const (
	forEachUnknownMap = "The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so Terrane cannot determine the full set of keys that will identify the instances of this resource.\n\n" +
		"When working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\n"
	forEachUnknownSet = "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so Terrane cannot determine the full set of keys that will identify the instances of this resource.\n\n" +
		"When working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\n"
	forEachUnknownDynamic = "The \"for_each\" value includes keys or set values from resource attributes that cannot be determined until apply, and so Terrane cannot determine what will identify the instances of this resource.\n\n" +
		"When working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\n"
)

// forEachUnknownDetail explains an unknown for_each value of type ty.
func (u Unknowns) forEachUnknownDetail(ty cty.Type) string {
	detail := forEachUnknownDynamic
	switch {
	case ty.IsMapType() || ty.IsObjectType():
		detail = forEachUnknownMap
	case ty.IsSetType():
		detail = forEachUnknownSet
	}
	if u.Excludable == "" {
		return detail + "Alternatively, you could use the -target option to first apply only the resources that for_each depends on, and then apply normally to converge."
	}
	return detail + "Alternatively, you could use the planning option " + u.excludeOption() + " to first apply without this object, and then apply normally to converge."
}

// EvalForEach evaluates a `for_each` argument into instance keys and their
// each.value. A set of strings gives each.value equal to each.key. known is
// false for an unknown value when unknowns.Allow is set.
func (s *Scope) EvalForEach(expr hcl.Expression, unknowns Unknowns) (elems map[string]cty.Value, known bool, diags hcl.Diagnostics) {
	val, diags := s.EvalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return nil, false, diags
	}
	invalid := func(detail string) (map[string]cty.Value, bool, hcl.Diagnostics) {
		return nil, false, diags.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid for_each argument", Detail: detail, Subject: expr.Range().Ptr()})
	}
	ty := val.Type()
	switch {
	case val.HasMark(marks.Ephemeral):
		// Ephemeral map values are allowed: they reach each.value, which
		// is as ephemeral as they are, never an instance key.
		return nil, false, diags.Append(ephemeralArgumentDiag("for_each", expr))
	case val.HasMark(marks.Sensitive):
		return invalid("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")
	case val.IsNull():
		return invalid(`The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A map, or set of strings is allowed.`)
	case !(ty.IsMapType() || ty.IsObjectType() || ty.IsSetType() || ty == cty.DynamicPseudoType):
		return invalid(fmt.Sprintf(`The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type %s.`, ty.FriendlyName()))
	case ty.IsSetType() && !ty.ElementType().Equals(cty.String) && ty.ElementType() != cty.DynamicPseudoType:
		return invalid(fmt.Sprintf(`The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type %s.`, ty.ElementType().FriendlyName()))
	case !val.IsWhollyKnown() && ty.IsSetType() || !val.IsKnown():
		// A map's keys are known even when its values are not; a set's
		// members are its keys, so any unknown member hides them.
		if unknowns.Allow {
			return nil, false, diags
		}
		return invalid(unknowns.forEachUnknownDetail(ty))
	}
	elems = make(map[string]cty.Value, val.LengthInt())
	for it := val.ElementIterator(); it.Next(); {
		key, elem := it.Element()
		if key.IsNull() || (ty.IsSetType() && elem.IsNull()) {
			return invalid(`The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.`)
		}
		if key.HasMark(marks.Ephemeral) {
			return nil, false, diags.Append(ephemeralArgumentDiag("for_each", expr))
		}
		if key.HasMark(marks.Sensitive) {
			return invalid("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")
		}
		elems[key.AsString()] = elem
	}
	return elems, true, diags
}

// EvalEnabled evaluates OpenTofu's lifecycle `enabled` argument: whether
// the single instance of a resource or module exists. known is false for
// an unknown value when unknowns.Allow is set.
func (s *Scope) EvalEnabled(expr hcl.Expression, unknowns Unknowns) (enabled, known bool, diags hcl.Diagnostics) {
	val, diags := s.EvalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return false, false, diags
	}
	invalid := func(detail string) (bool, bool, hcl.Diagnostics) {
		return false, false, diags.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid enabled argument", Detail: detail, Subject: expr.Range().Ptr()})
	}
	switch {
	case val.HasMark(marks.Ephemeral):
		return invalid("Ephemeral values, or values derived from ephemeral values, cannot be used as the enabled argument: whether an instance exists is recorded, and an ephemeral value never is.")
	case val.HasMark(marks.Sensitive):
		return invalid(`Sensitive values, or values derived from sensitive values, cannot be used in "enabled" arguments. If used, the sensitive value would be exposed by whether an instance is present.`)
	case val.IsNull():
		return invalid(`The given "enabled" argument value is unsuitable: the given value is null.`)
	case !val.IsKnown() && unknowns.Allow:
		return false, false, diags
	case !val.IsKnown():
		return invalid(`The given "enabled" argument value is derived from a value that won't be known until the apply phase, so Terrane cannot determine whether an instance of this object is declared or not.`)
	}
	val, err := convert.Convert(val, cty.Bool)
	if err != nil {
		return invalid(fmt.Sprintf(`The given "enabled" argument value is unsuitable: %s.`, err))
	}
	return val.True(), true, diags
}
