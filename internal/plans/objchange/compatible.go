package objchange

import (
	"github.com/terrane/terrane/internal/marks"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/schema"
)

// AssertObjectCompatible checks that actual — the new state
// ApplyResourceChange returned, or a new plan made during apply — is a
// completion of planned, and returns every broken rule as a cty.PathError.
// Any error is a provider bug.
//
// The protocol's rule (resource instance change lifecycle, "new state"):
// every value known in the plan is kept exactly; a planned unknown may
// become any value of its type that its refinements allow (not null, a
// string prefix, number bounds, collection length bounds). Nested blocks
// keep their number and keys, except where the plan held a block of
// unknown placeholders (a dynamic block over an unknown for_each), which
// may expand into any number. A set may shrink, as unknown elements that
// become equal merge, but never grow. Write-only attributes stay null.
//
// Whether the final state is wholly known is a separate question:
// AssertWhollyKnown answers it.
func AssertObjectCompatible(sch *schema.Block, planned, actual cty.Value) []error {
	c := compatChecker{}
	c.unmarkAll(&planned, &actual)
	return c.object(blockShape(sch), planned, actual, nil)
}

// AssertPlannedValueValid checks a plan made again during apply, when all
// configuration is known, against the saved plan it carries out. The rule
// is AssertObjectCompatible's: what the saved plan knew must not change,
// and what it left unknown may be decided now or stay unknown — but an
// unknown that stays unknown may only promise more, never less, than the
// saved plan promised. Errors say which plan held which value.
func AssertPlannedValueValid(sch *schema.Block, saved, replanned cty.Value) []error {
	c := compatChecker{replan: true}
	c.unmarkAll(&saved, &replanned)
	return c.object(blockShape(sch), saved, replanned, nil)
}

type compatChecker struct {
	sensitivity
	// replan words errors for a new plan compared with a saved one.
	replan bool
	// probing is set while correlating set elements, when only whether
	// there are errors matters.
	probing bool
}

// now is how errors name the value being checked.
func (c *compatChecker) now() string {
	if c.replan {
		return "the new plan has"
	}
	return "the provider returned"
}

func (c *compatChecker) object(s shape, planned, actual cty.Value, path cty.Path) []error {
	if unchanged(planned, actual) {
		return nil
	}
	if !planned.IsKnown() {
		return c.unknown(planned, actual, path)
	}
	if errs := c.presence(planned, actual, path); errs != nil || planned.IsNull() {
		return errs
	}
	var errs []error
	for _, name := range sortedNames(s.attrs) {
		attr := s.attrs[name]
		attrPath := attrStep(path, name)
		more := c.attribute(attr, attrOf(planned, name), attrOf(actual, name), attrPath)
		errs = append(errs, c.redact(more, attr, attrPath, "inconsistent values for a sensitive attribute")...)
	}
	for _, name := range sortedNames(s.blocks) {
		block := s.blocks[name]
		errs = append(errs, c.block(block, attrOf(planned, name), attrOf(actual, name), attrStep(path, name))...)
	}
	return errs
}

func (c *compatChecker) presence(planned, actual cty.Value, path cty.Path) []error {
	switch {
	case planned.IsNull() && !actual.IsNull():
		return []error{path.NewErrorf("was planned absent, but %s an object", c.now())}
	case actual.IsNull() && !planned.IsNull():
		return []error{path.NewErrorf("was planned present, but %s null", c.now())}
	case !actual.IsKnown():
		return []error{path.NewErrorf("was planned as a known object, but %s an unknown one", c.now())}
	}
	return nil
}

func (c *compatChecker) attribute(attr *schema.Attribute, planned, actual cty.Value, path cty.Path) []error {
	switch {
	case attr.WriteOnly:
		if !actual.IsNull() {
			return []error{path.NewErrorf("%s a value for a write-only attribute, which must always be null", c.now())}
		}
		return nil
	case attr.NestedType != nil:
		return c.collection(attr.NestedType.Nesting, objectShape(attr.NestedType), planned, actual, path)
	default:
		return c.value(planned, actual, path)
	}
}

func (c *compatChecker) block(block *schema.NestedBlock, planned, actual cty.Value, path cty.Path) []error {
	if block.Nesting != schema.NestingSingle && block.Nesting != schema.NestingGroup {
		// No blocks may arrive as null or as empty, depending on the
		// provider's SDK; both mean the same.
		planned, actual = nullAsEmpty(planned), nullAsEmpty(actual)
	}
	if hasUnknownPlaceholder(blockShape(&block.Block), block.Nesting, planned) {
		// The plan stood in for blocks a dynamic block had yet to make:
		// their number and content were not known.
		return nil
	}
	if block.Nesting == schema.NestingSingle && !planned.IsKnown() && actual.IsNull() {
		return nil // the unknown block turned out to be absent
	}
	return c.collection(block.Nesting, blockShape(&block.Block), planned, actual, path)
}

func (c *compatChecker) collection(nesting schema.Nesting, s shape, planned, actual cty.Value, path cty.Path) []error {
	if !planned.IsKnown() {
		return c.unknown(planned, actual, path)
	}
	if errs := c.presence(planned, actual, path); errs != nil || planned.IsNull() {
		return errs
	}
	switch nesting {
	case schema.NestingSingle, schema.NestingGroup:
		return c.object(s, planned, actual, path)
	case schema.NestingList, schema.NestingMap:
		return c.keyed(planned, actual, path, func(p, a cty.Value, path cty.Path) []error {
			return c.object(s, p, a, path)
		})
	case schema.NestingSet:
		return c.set(planned, actual, path, func(p, a cty.Value, path cty.Path) []error {
			return c.object(s, p, a, path)
		})
	default:
		return nil
	}
}

// value checks an attribute's value of a plain (non-nested) type.
func (c *compatChecker) value(planned, actual cty.Value, path cty.Path) []error {
	if unchanged(planned, actual) || planned.Type() == cty.DynamicPseudoType {
		return nil // not even the type was known
	}
	if problems := actual.Type().TestConformance(planned.Type()); len(problems) > 0 {
		return []error{path.NewErrorf("%s a value of the wrong type: %s", c.now(), convert.MismatchMessage(actual.Type(), planned.Type()))}
	}
	switch {
	case !planned.IsKnown():
		return c.unknown(planned, actual, path)
	case planned.IsNull() && actual.IsNull():
		return nil
	case planned.IsNull() || actual.IsNull() || !actual.IsKnown():
		return []error{c.changed(planned, actual, path)}
	}
	ty := planned.Type()
	switch {
	case ty.IsPrimitiveType():
		if !actual.Equals(planned).True() {
			return []error{c.changed(planned, actual, path)}
		}
		return nil
	case ty.IsSetType():
		return c.set(planned, actual, path, c.value)
	case ty.IsObjectType():
		var errs []error
		for name := range ty.AttributeTypes() {
			errs = append(errs, c.value(planned.GetAttr(name), actual.GetAttr(name), attrStep(path, name))...)
		}
		return errs
	default:
		return c.keyed(planned, actual, path, c.value)
	}
}

func (c *compatChecker) changed(planned, actual cty.Value, path cty.Path) error {
	return path.NewErrorf("was planned as %s, but %s %s", c.describe(planned), c.now(), c.describe(actual))
}

// unchanged reports whether actual is exactly the wholly known planned
// value, the common case that needs no walk.
func unchanged(planned, actual cty.Value) bool {
	return planned.IsWhollyKnown() && planned.RawEquals(actual)
}

// keyed checks lists, tuples and maps element by element: no element may
// vanish or appear.
func (c *compatChecker) keyed(planned, actual cty.Value, path cty.Path, check func(p, a cty.Value, path cty.Path) []error) []error {
	if isSequence(planned) && planned.LengthInt() != actual.LengthInt() {
		return []error{path.NewErrorf("was planned with %d elements, but %s %d", planned.LengthInt(), c.now(), actual.LengthInt())}
	}
	var errs []error
	for _, e := range elements(planned) {
		elemPath := keyStep(path, planned, e.key)
		actualElem, ok := elementAt(actual, e.key)
		if !ok {
			errs = append(errs, elemPath.NewErrorf("was planned, but %s no such element", c.now()))
			continue
		}
		errs = append(errs, check(e.val, actualElem, elemPath)...)
	}
	for _, e := range elements(actual) {
		if _, ok := elementAt(planned, e.key); !ok {
			errs = append(errs, keyStep(path, actual, e.key).NewErrorf("was not planned, but %s it", c.now()))
		}
	}
	return errs
}

// set checks a set by correlation, the only identity set elements have:
// every planned element must be completed by some actual element and every
// actual element must complete some planned one. Planned unknowns that
// turn out equal merge, so the set may shrink, but it may not grow.
func (c *compatChecker) set(planned, actual cty.Value, path cty.Path, check func(p, a cty.Value, path cty.Path) []error) []error {
	plannedElems, actualElems := elements(planned), elements(actual)
	plannedMatched, actualMatched := matchEqualElements(plannedElems, actualElems)
	// Only the errors' absence matters while correlating; probing spares
	// the cost of describing values in messages nobody reads.
	wasProbing := c.probing
	c.probing = true
	for i, p := range plannedElems {
		for j := 0; j < len(actualElems) && !plannedMatched[i]; j++ {
			plannedMatched[i] = len(check(p.val, actualElems[j].val, path)) == 0
		}
	}
	for j, a := range actualElems {
		for i := 0; i < len(plannedElems) && !actualMatched[j]; i++ {
			actualMatched[j] = len(check(plannedElems[i].val, a.val, path)) == 0
		}
	}
	c.probing = wasProbing
	var errs []error
	for i, matched := range plannedMatched {
		if !matched {
			errs = append(errs, path.NewErrorf("planned set element %s has no counterpart in what %s", c.describe(plannedElems[i].val), c.now()))
		}
	}
	for j, matched := range actualMatched {
		if !matched {
			errs = append(errs, path.NewErrorf("set element %s was not planned", c.describe(actualElems[j].val)))
		}
	}
	if len(actualElems) > len(plannedElems) {
		errs = append(errs, path.NewErrorf("was planned with %d elements, but %s %d", len(plannedElems), c.now(), len(actualElems)))
	}
	return errs
}

// matchEqualElements pairs set elements that are identical and wholly
// known: most elements of a set come through apply unchanged, and pairing
// them first leaves only the rest to the costlier correlation.
func matchEqualElements(planned, actual []element) (plannedMatched, actualMatched []bool) {
	plannedMatched, actualMatched = make([]bool, len(planned)), make([]bool, len(actual))
	for i, p := range planned {
		if !p.val.IsWhollyKnown() {
			continue
		}
		for j, a := range actual {
			if !actualMatched[j] && p.val.RawEquals(a.val) {
				plannedMatched[i], actualMatched[j] = true, true
				break
			}
		}
	}
	return plannedMatched, actualMatched
}

// describe is describe, or nothing while probing.
func (c *compatChecker) describe(v cty.Value) string {
	if c.probing {
		return "…"
	}
	return describe(v)
}

// unknown checks a value against a planned unknown: a known value must be
// one the refinements allow; a value still unknown must promise at least
// what the planned one did.
func (c *compatChecker) unknown(planned, actual cty.Value, path cty.Path) []error {
	if actual.IsKnown() {
		if ok := planned.Range().Includes(actual); ok.IsKnown() && ok.False() {
			return []error{path.NewErrorf("%s %s, which the plan's %s does not allow", c.now(), c.describe(actual), c.describe(planned))}
		}
		return nil
	}
	if broken := weakenedPromises(planned.Range(), actual.Range()); len(broken) > 0 {
		return []error{path.NewErrorf("was planned as %s, but %s %s, which no longer promises %s", c.describe(planned), c.now(), c.describe(actual), joinWords(broken))}
	}
	return nil
}

// AssertWhollyKnown checks that a provider's final new state has no unknown
// value left in it, as ApplyResourceChange must (protocol: the new state
// replaces every unknown with the real value). Each unknown is one error.
func AssertWhollyKnown(actual cty.Value) []error {
	actual, _ = marks.UnmarkDeep(actual)
	var errs []error
	_ = cty.Walk(actual, func(path cty.Path, v cty.Value) (bool, error) {
		if !v.IsKnown() {
			errs = append(errs, path.Copy().NewErrorf("is still unknown after apply; the provider must return the real value"))
			return false, nil
		}
		return true, nil
	})
	return errs
}
