package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/terrane/terrane/internal/lang/marks"
)

// EvalCount evaluates a `count` argument. known is false when the value is
// unknown and allowUnknown is set (validation, or a plan that defers the
// resource); with allowUnknown unset an unknown count is an error telling
// the user how to get past it.
func (s *Scope) EvalCount(expr hcl.Expression, allowUnknown bool) (count int, known bool, diags hcl.Diagnostics) {
	val, diags := s.EvalExpr(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return 0, false, diags
	}
	invalid := func(detail string) (int, bool, hcl.Diagnostics) {
		return 0, false, diags.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid count argument", Detail: detail, Subject: expr.Range().Ptr()})
	}
	switch {
	case marks.Contains(val, marks.Ephemeral):
		return 0, false, diags.Append(ephemeralArgumentDiag("count", expr))
	case marks.Contains(val, marks.Sensitive):
		return invalid("Sensitive values, or values derived from sensitive values, cannot be used as count arguments. If used, the sensitive value could be exposed as a resource instance key.")
	case val.IsNull():
		return invalid(`The given "count" argument value is null. An integer is required.`)
	case !val.IsKnown() && allowUnknown:
		return 0, false, diags
	case !val.IsKnown():
		return invalid(`The "count" value depends on resource attributes that cannot be determined until apply, so Terrane cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.`)
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

// EvalForEach evaluates a `for_each` argument into instance keys and their
// each.value. A set of strings gives each.value equal to each.key. known is
// false for an unknown value when allowUnknown is set.
func (s *Scope) EvalForEach(expr hcl.Expression, allowUnknown bool) (elems map[string]cty.Value, known bool, diags hcl.Diagnostics) {
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
		if allowUnknown {
			return nil, false, diags
		}
		return invalid(`The "for_each" value depends on resource attributes that cannot be determined until apply, so Terrane cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the for_each depends on.`)
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
