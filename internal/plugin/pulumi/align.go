package pulumi

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Pulumi values carry no types: an unknown is just "computed", and a value
// of an Any property comes back as whatever JSON-like shape it has (a
// list as a tuple, say). The configuration, the plan and the prior state
// do have types, and Terraform's rules compare values exactly (a planned
// value must equal the configured one, an applied one the planned one).
// alignTo gives an answer back the types of the value it answers for,
// wherever the two agree up to the types the wire cannot carry.

// alignTo returns answer with every part that equals the reference's
// counterpart up to typing replaced by the reference's, so an unknown
// configured as a string stays an unknown string and a list sent as an
// Any value stays a list. A part the provider answered as unknown where
// the reference is set but only partly known (a list holding one unknown,
// which a bridged provider's preview collapses into one unknown) is the
// reference's too: the provider could not say more than the configuration
// does. Parts that differ keep the answer's value, so a real difference
// still fails the plan's consistency checks.
func alignTo(answer, reference cty.Value) cty.Value {
	if reference == cty.NilVal || answer == cty.NilVal {
		return answer
	}
	reference, _ = reference.UnmarkDeep()
	switch {
	case sameUpToTyping(answer, reference), emptyOrNull(answer) && emptyOrNull(reference):
		return reference
	case !answer.IsKnown():
		if !reference.IsNull() && reference.IsKnown() && !reference.IsWhollyKnown() && conforms(answer.Type(), reference.Type()) {
			return reference
		}
		return answer
	case answer.IsNull() || reference.IsNull() || !reference.IsKnown():
		return answer
	}
	if answer.Type().IsObjectType() && reference.Type().IsObjectType() {
		attrs := answer.AsValueMap()
		for name, v := range attrs {
			if reference.Type().HasAttribute(name) {
				attrs[name] = alignTo(v, reference.GetAttr(name))
			}
		}
		return cty.ObjectVal(attrs)
	}
	return answer
}

// sameUpToTyping reports whether two values are equal once the answer is
// given the reference's type: both unknown, both null, or converting
// answer to reference's type gives reference, part by part.
func sameUpToTyping(answer, reference cty.Value) bool {
	switch {
	case !answer.IsKnown() || !reference.IsKnown():
		return !answer.IsKnown() && !reference.IsKnown() && conforms(answer.Type(), reference.Type())
	case answer.IsNull() || reference.IsNull():
		return answer.IsNull() && reference.IsNull()
	}
	at, rt := answer.Type(), reference.Type()
	switch {
	case at.IsPrimitiveType() && rt.IsPrimitiveType():
		converted, err := convert.Convert(answer, rt)
		return err == nil && converted.RawEquals(reference)
	case (at.IsObjectType() || at.IsMapType()) && (rt.IsObjectType() || rt.IsMapType()):
		answers, references := answer.AsValueMap(), reference.AsValueMap()
		if len(answers) != len(references) {
			return false
		}
		for key, v := range answers {
			r, ok := references[key]
			if !ok || !sameUpToTyping(v, r) {
				return false
			}
		}
		return true
	case isSequence(at) && isSequence(rt):
		answers, references := answer.AsValueSlice(), reference.AsValueSlice()
		if len(answers) != len(references) {
			return false
		}
		if rt.IsSetType() {
			// Set elements have no order to pair them by: the whole set must
			// convert to the reference.
			converted, err := convert.Convert(answer, rt)
			return err == nil && converted.IsWhollyKnown() && converted.RawEquals(reference)
		}
		for i := range answers {
			if !sameUpToTyping(answers[i], references[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// conforms reports whether an unknown of type answer may stand for one of
// type reference: the same type, or an answer whose type the wire could
// not tell (dynamic, or a collection of dynamic).
func conforms(answer, reference cty.Type) bool {
	return answer.Equals(reference) || answer.TestConformance(reference) == nil || reference.TestConformance(answer) == nil
}

// emptyOrNull reports whether v is null or a known empty collection. The
// wire cannot tell them apart (a null is sent as an absent property, and
// providers answer an absent map as empty or absent as they please), so
// the one is not a change from the other, as Terraform's SDK keeps a
// prior null where a read returns an empty collection.
func emptyOrNull(v cty.Value) bool {
	if v.IsNull() {
		return true
	}
	ty := v.Type()
	return v.IsKnown() && (ty.IsMapType() || ty.IsListType() || ty.IsSetType() || ty.IsTupleType()) && v.LengthInt() == 0
}

func isSequence(ty cty.Type) bool {
	return ty.IsListType() || ty.IsSetType() || ty.IsTupleType()
}
