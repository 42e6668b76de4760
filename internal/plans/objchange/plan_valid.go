package objchange

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// AssertPlanValid checks the planned state a provider returned from
// PlanResourceChange against the prior state and the configuration, and
// returns every broken rule as a cty.PathError. Any error is a provider bug.
//
// The protocol's rules (resource instance change lifecycle, "planned new
// state"):
//   - an attribute the configuration sets is planned as configured — or as
//     its prior value, the provider's way of saying the two are equivalent;
//   - a provider may choose any value only for a computed attribute the
//     configuration leaves null, and for a computed-only attribute;
//   - so a planned unknown is allowed only where the configuration is
//     unknown or the provider may choose;
//   - nested blocks cannot be computed: their number, keys and presence
//     are the configuration's, and a block is never itself unknown
//     (its attributes may be);
//   - write-only attributes are planned as null.
//
// prior is null for a create; config and planned must conform to the
// schema's implied type. Marked (sensitive) values are accepted, and errors
// about them do not show them.
func AssertPlanValid(sch *schema.Block, prior, config, planned cty.Value) []error {
	c := planChecker{}
	c.unmarkAll(&prior, &config, &planned)
	return c.object(blockShape(sch), prior, config, planned, nil)
}

type planChecker struct {
	sensitivity
}

func (c *planChecker) object(s shape, prior, config, planned cty.Value, path cty.Path) []error {
	if errs := c.presence(config, planned, path); errs != nil || planned.IsNull() {
		return errs
	}
	var errs []error
	for _, name := range sortedNames(s.attrs) {
		attr := s.attrs[name]
		attrPath := attrStep(path, name)
		more := c.attribute(attr, attrOf(prior, name), attrOf(config, name), attrOf(planned, name), attrPath)
		errs = append(errs, c.redact(more, attr, attrPath, "sensitive planned value does not match the configuration nor the prior value")...)
	}
	for _, name := range sortedNames(s.blocks) {
		block := s.blocks[name]
		errs = append(errs, c.block(block, attrOf(prior, name), attrOf(config, name), attrOf(planned, name), attrStep(path, name))...)
	}
	return errs
}

// presence checks that an object exists in the plan exactly when the
// configuration has it, and is known when the configuration is.
func (c *planChecker) presence(config, planned cty.Value, path cty.Path) []error {
	switch {
	case planned.IsNull() && !config.IsNull():
		return []error{path.NewErrorf("planned for absence but the configuration wants it present")}
	case config.IsNull() && !planned.IsNull():
		return []error{path.NewErrorf("planned for existence but the configuration wants it absent")}
	case config.IsKnown() && !planned.IsKnown():
		return []error{path.NewErrorf("planned as unknown, but the configuration gives a known object; plan the attributes inside it unknown instead")}
	}
	return nil
}

func (c *planChecker) attribute(attr *schema.Attribute, prior, config, planned cty.Value, path cty.Path) []error {
	if attr.WriteOnly {
		// Write-only values go to the provider and are never stored, so
		// no plan or state may hold one.
		if !planned.IsNull() {
			return []error{path.NewErrorf("planned a value for a write-only attribute; write-only attributes must be planned as null")}
		}
		return nil
	}
	switch {
	case sameIgnoringRefinements(planned, config):
		return nil
	case !prior.IsNull() && !config.IsNull() && sameIgnoringRefinements(planned, prior):
		// The provider keeps the prior value over an equivalent
		// configured one (say, a differently formatted JSON document).
		return nil
	case attr.Computed && !attr.Optional:
		return nil
	case attr.Computed && config.IsNull():
		return nil
	case config.IsNull():
		return []error{path.NewErrorf("planned %s for a non-computed attribute the configuration leaves null", describe(planned))}
	case attr.NestedType != nil && config.IsKnown():
		return c.collection(attr.NestedType.Nesting, objectShape(attr.NestedType), prior, config, planned, path)
	case !config.IsKnown():
		return []error{path.NewErrorf("planned %s, but the configuration's value is not known yet, so only unknown can be planned", describe(planned))}
	case prior.IsNull():
		return []error{path.NewErrorf("planned %s, which does not match the configured %s", describe(planned), describe(config))}
	default:
		return []error{path.NewErrorf("planned %s, which matches neither the configured %s nor the prior %s", describe(planned), describe(config), describe(prior))}
	}
}

func (c *planChecker) block(block *schema.NestedBlock, prior, config, planned cty.Value, path cty.Path) []error {
	switch {
	case sameIgnoringRefinements(planned, config):
		return nil
	case !config.IsKnown():
		// A dynamic block whose for_each is unknown: the provider cannot
		// know how many blocks there will be.
		return []error{path.NewErrorf("planned %s for a dynamic block whose for_each is not known yet; plan it unknown", describe(planned))}
	case !planned.IsKnown():
		return []error{path.NewErrorf("planned a nested block collection as unknown; plan the attributes inside the blocks unknown instead")}
	}
	if block.Nesting != schema.NestingSingle && block.Nesting != schema.NestingGroup {
		if planned.IsNull() {
			return []error{path.NewErrorf("planned null for a collection of nested blocks; no blocks is an empty collection")}
		}
		// A legacy provider may have put a null here in the prior state
		// that ignore_changes carried into the configuration.
		config = nullAsEmpty(config)
	}
	return c.collection(block.Nesting, blockShape(&block.Block), prior, config, planned, path)
}

// collection checks a nested block type's or nested attribute type's
// planned value, known and configured, element by element.
func (c *planChecker) collection(nesting schema.Nesting, s shape, prior, config, planned cty.Value, path cty.Path) []error {
	switch nesting {
	case schema.NestingSingle, schema.NestingGroup:
		return c.object(s, prior, config, planned, path)
	case schema.NestingList, schema.NestingMap:
		return c.keyed(s, prior, config, planned, path)
	case schema.NestingSet:
		return c.set(config, planned, path)
	default:
		return nil
	}
}

// keyed checks list elements by index and map elements by key: the
// configuration decides which exist.
func (c *planChecker) keyed(s shape, prior, config, planned cty.Value, path cty.Path) []error {
	if errs := c.presence(config, planned, path); errs != nil || planned.IsNull() {
		return errs
	}
	if isSequence(planned) && planned.LengthInt() != config.LengthInt() {
		return []error{path.NewErrorf("planned %d elements, but the configuration has %d", planned.LengthInt(), config.LengthInt())}
	}
	var errs []error
	for _, e := range elements(planned) {
		elemPath := keyStep(path, planned, e.key)
		configElem, ok := elementAt(config, e.key)
		if !ok {
			errs = append(errs, elemPath.NewErrorf("planned an element the configuration does not have"))
			continue
		}
		priorElem, ok := elementAt(prior, e.key)
		if !ok {
			priorElem = cty.NullVal(configElem.Type())
		}
		errs = append(errs, c.object(s, priorElem, configElem, e.val, elemPath)...)
	}
	for _, e := range elements(config) {
		if _, ok := elementAt(planned, e.key); !ok {
			errs = append(errs, keyStep(path, config, e.key).NewErrorf("the configuration has this element, but the plan does not"))
		}
	}
	return errs
}

// set checks what can be checked of a set of objects: set elements have no
// identity to pair a planned element with its configuration (a provider
// may combine prior and configured parts into an element neither has), so
// only presence and known-ness are the configuration's to decide.
func (c *planChecker) set(config, planned cty.Value, path cty.Path) []error {
	if errs := c.presence(config, planned, path); errs != nil || planned.IsNull() {
		return errs
	}
	var errs []error
	if config.IsWhollyKnown() {
		for _, e := range elements(planned) {
			if !e.val.IsKnown() {
				errs = append(errs, path.NewErrorf("planned a set element as unknown; plan the attributes inside it unknown instead"))
			}
		}
	}
	return errs
}

func isSequence(v cty.Value) bool {
	return v.Type().IsListType() || v.Type().IsTupleType()
}
