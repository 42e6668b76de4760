package lang

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/terrane/terrane/internal/marks"
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
// suggest, its address quoted for a POSIX shell as OpenTofu quotes it:
// in single quotes when it holds white space, else with a backslash before
// each character the shell would read specially.
func (u Unknowns) excludeOption() string {
	return "-exclude=" + shellQuote(u.Excludable)
}

func shellQuote(arg string) string {
	const meta = "|&;<>(){}[]$`\\\"'*?!#~=%"
	switch {
	case arg == "":
		return "''"
	case strings.ContainsAny(arg, " \n\t"):
		return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
	}
	var b strings.Builder
	for _, r := range arg {
		if strings.ContainsRune(meta, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// EvalCount evaluates a `count` argument. known is false when the value is
// unknown and unknowns.Allow is set; otherwise an unknown count is an error
// telling the user how to converge. A sensitive count is allowed, as in
// OpenTofu: how many instances exist is not the secret.
func (s *Scope) EvalCount(expr hcl.Expression, unknowns Unknowns) (count int, known bool, diags hcl.Diagnostics) {
	// As in OpenTofu, the value is converted to a number first, so a
	// string is refused as any other value of the wrong type is.
	val, diags := s.EvalExpr(expr, cty.Number)
	if diags.HasErrors() {
		return 0, false, diags
	}
	val, valMarks := val.Unmark()
	invalid := func(detail string) (int, bool, hcl.Diagnostics) {
		return 0, false, diags.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid count argument", Detail: detail, Subject: expr.Range().Ptr()})
	}
	if _, ephemeral := valMarks[marks.Ephemeral]; ephemeral {
		d := ephemeralArgumentDiag("count", expr)
		d.Expression, d.Extra = expr, causedByConfidential{}
		return 0, false, diags.Append(d)
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
		return 0, false, diags.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid count argument",
			Detail:  "The \"count\" value depends on resource attributes that cannot be determined until apply, so Terrane cannot predict how many instances will be created.\n\n" + suggestion,
			Subject: expr.Range().Ptr(), Extra: causedByUnknown{}})
	}
	if err := gocty.FromCtyValue(val, &count); err != nil {
		return invalid(fmt.Sprintf(`The given "count" argument value is unsuitable: %s.`, err))
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

// forEachUnknownDetail explains an unknown for_each value: detail, which
// says what kind of value it is, then how to converge.
func (u Unknowns) forEachUnknownDetail(detail string) string {
	if u.Excludable == "" {
		return detail + "Alternatively, you could use the -target option to first apply only the resources that for_each depends on, and then apply normally to converge."
	}
	return detail + "Alternatively, you could use the planning option " + u.excludeOption() + " to first apply without this object, and then apply normally to converge."
}

// EvalForEach evaluates a `for_each` argument into instance keys and their
// each.value. A set of strings gives each.value equal to each.key. known is
// false for an unknown value when unknowns.Allow is set. The checks, their
// words and their order are OpenTofu's; their diagnostics show the values
// of the expression's references.
func (s *Scope) EvalForEach(expr hcl.Expression, unknowns Unknowns) (elems map[string]cty.Value, known bool, diags hcl.Diagnostics) {
	val, ctx, diags := s.EvalExprIn(expr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return nil, false, diags
	}
	check := forEachCheck{expr: expr, ctx: ctx, unknowns: unknowns}
	ty := val.Type()
	var checked cty.Value
	switch {
	case ty == cty.DynamicPseudoType:
		checked = check.value(val, val, forEachUnknownDynamic)
	case ty.IsMapType() || ty.IsObjectType():
		checked = check.value(val, val, forEachUnknownMap)
	case ty.IsSetType():
		typeDiags := check.setType(val)
		setVal := check.setValues(val, typeDiags.HasErrors())
		checked = check.value(val, setVal, forEachUnknownSet)
		check.diags = append(check.diags, typeDiags...)
	default:
		typeDiag := check.diag(fmt.Sprintf(`The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type %s.`, ty.FriendlyName()), nil)
		check.value(val, val, forEachUnknownDynamic)
		check.diags = append(check.diags, typeDiag)
		checked = cty.NullVal(ty)
	}
	diags = append(diags, check.diags...)
	if diags.HasErrors() || checked.IsNull() {
		return nil, false, diags
	}
	if !checked.IsKnown() {
		return nil, false, diags
	}
	elems = make(map[string]cty.Value, val.LengthInt())
	for it := val.ElementIterator(); it.Next(); {
		key, elem := it.Element()
		if key.HasMark(marks.Ephemeral) {
			return nil, false, diags.Append(ephemeralArgumentDiag("for_each", expr))
		}
		if key.HasMark(marks.Sensitive) {
			return nil, false, diags.Append(check.diag(forEachSensitive, causedByConfidential{}))
		}
		elems[key.AsString()] = elem
	}
	return elems, true, diags
}

const forEachSensitive = "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key."

// forEachCheck collects the diagnostics of one for_each value's checks.
type forEachCheck struct {
	expr     hcl.Expression
	ctx      *hcl.EvalContext
	unknowns Unknowns
	diags    hcl.Diagnostics
}

func (c *forEachCheck) diag(detail string, extra any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid for_each argument", Detail: detail,
		Subject: c.expr.Range().Ptr(), Expression: c.expr, EvalContext: c.ctx, Extra: extra}
}

// value checks what any for_each value must be: known (unless unknowns
// are allowed), not null, neither sensitive nor ephemeral. checked is the
// value after the type's own checks; value returns what is left to expand.
func (c *forEachCheck) value(val, checked cty.Value, unknownDetail string) cty.Value {
	ty := val.Type()
	if !checked.IsKnown() || !val.IsKnown() {
		if !c.unknowns.Allow {
			c.diags = append(c.diags, c.diag(c.unknowns.forEachUnknownDetail(unknownDetail), causedByUnknown{}))
		}
		checked = cty.UnknownVal(ty)
	}
	if val.IsNull() {
		c.diags = append(c.diags, c.diag(`The given "for_each" argument value is unsuitable: the given "for_each" argument value is null.`, nil))
		checked = cty.NullVal(ty)
	}
	if val.HasMark(marks.Sensitive) {
		c.diags = append(c.diags, c.diag(forEachSensitive, causedByConfidential{}))
		checked = cty.NullVal(ty)
	}
	if val.HasMark(marks.Ephemeral) {
		c.diags = append(c.diags, c.diag("Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key.", causedByConfidential{}))
		checked = cty.NullVal(ty)
	}
	return checked
}

// setType checks that a set's elements are strings.
func (c *forEachCheck) setType(val cty.Value) hcl.Diagnostics {
	elem := val.Type().ElementType()
	if elem == cty.String || elem == cty.DynamicPseudoType {
		return nil
	}
	return hcl.Diagnostics{c.diag(fmt.Sprintf(`The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type %s.`, elem.FriendlyName()), nil)}
}

// setValues checks that a set holds no null; a set not wholly known is
// left to value, as unknown.
func (c *forEachCheck) setValues(val cty.Value, badType bool) cty.Value {
	ty := val.Type()
	switch {
	case badType:
		return cty.NullVal(ty)
	case !val.IsWhollyKnown():
		return cty.UnknownVal(ty)
	case val.IsNull():
		return val
	}
	unmarked, _ := val.UnmarkDeep()
	for it := unmarked.ElementIterator(); it.Next(); {
		if _, item := it.Element(); item.IsNull() {
			c.diags = append(c.diags, c.diag(`The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.`, nil))
			return cty.NullVal(ty)
		}
	}
	return val
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
