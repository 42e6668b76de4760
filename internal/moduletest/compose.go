package moduletest

import (
	"fmt"
	"hash/fnv"
	"math/rand"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/schema"
)

// composer makes the values of a mocked or overridden object from its
// configuration: configured attributes keep their values, computed ones
// take the given values or generated ones, as OpenTofu generates them: 0,
// false, an empty collection, an object of such values, and a random
// alphanumeric string of 4 to 15 characters. The strings come from a
// generator seeded with a hash of the resource type and attributes are
// visited in name order, so one configuration always gets the same values.
type composer struct {
	rand *rand.Rand
}

// problem is something wrong with the values given to a mock or an
// override: an error unless severity says otherwise.
type problem struct {
	summary, detail string
	severity        diags.Severity
}

func newComposer(typeName string) *composer {
	h := fnv.New32()
	h.Write([]byte(typeName))
	return newSeededComposer(int64(h.Sum32()))
}

func newSeededComposer(seed int64) *composer {
	return &composer{rand: rand.New(rand.NewSource(seed))} //nolint:gosec // mock values need no security
}

// compose builds the object of block from its configuration (null for an
// object with no configuration) and the given values of computed
// attributes and blocks.
func (c *composer) compose(block *schema.Block, cfg cty.Value, given map[string]cty.Value) (cty.Value, []problem) {
	var cfgMap map[string]cty.Value
	if !cfg.IsNull() && cfg.IsKnown() {
		cfgMap = cfg.AsValueMap()
	}
	out := map[string]cty.Value{}
	var problems []problem
	for _, name := range sortedNames(block.Attributes) {
		val, more := c.attribute(name, block.Attributes[name], cfgMap[name], given)
		out[name] = val
		problems = append(problems, more...)
	}
	for _, name := range sortedNames(block.BlockTypes) {
		val, more := c.nestedBlock(name, block.BlockTypes[name], cfgMap[name], given)
		out[name] = val
		problems = append(problems, more...)
	}
	for _, name := range sortedNames(given) {
		if block.Attributes[name] == nil && block.BlockTypes[name] == nil {
			problems = append(problems, problem{summary: fmt.Sprintf("Invalid override for block field `%s`", name), detail: "The field is unknown. Please, ensure it is a part of resource definition."})
		}
	}
	return cty.ObjectVal(out), problems
}

// attribute makes one attribute's value by OpenTofu's rules: the
// configuration's value where there is one, else the given value for an
// optional or computed attribute, else a generated one for a computed
// attribute; given values for configured or non-computed attributes, and
// values of the wrong type, are errors.
func (c *composer) attribute(name string, attr *schema.Attribute, cfgVal cty.Value, given map[string]cty.Value) (cty.Value, []problem) {
	ty := attr.ImpliedType()
	want, hasGiven := given[name]
	hasConfig := cfgVal != cty.NilVal && !cfgVal.IsNull()
	var problems []problem
	invalid := func(detail string) {
		problems = append(problems, problem{summary: fmt.Sprintf("Invalid mock/override field `%s`", name), detail: detail})
	}
	var converted cty.Value
	if hasGiven {
		if hasConfig {
			invalid("The field is ignored since overriding configuration values is not allowed.")
		}
		if !attr.Computed {
			problems = append(problems, problem{summary: fmt.Sprintf("Non-computed field `%s` is not allowed to be overridden", name), detail: "Overriding non-computed fields is not allowed, so this field cannot be processed."})
		}
		var err error
		if converted, err = convert.Convert(want, ty); err != nil {
			invalid(fmt.Sprintf("Values provided for override / mock must match resource fields types: %s.", err))
		}
	}
	switch {
	case attr.WriteOnly:
		if hasGiven {
			problems = append(problems, problem{severity: diags.Warning, summary: fmt.Sprintf("Encountered override for write-only attribute `%s`", name),
				detail: "Override values for write-only attributes have no impact since the write-only attributes will always be null in the provider response."})
		}
		return cty.NullVal(ty), problems
	case attr.Required:
		if !hasConfig {
			invalid("Required field in configuration not provided")
		}
		return cfgVal, problems
	case hasConfig && attr.Optional:
		return cfgVal, problems
	case hasConfig:
		invalid("Config value can not be specified for computed field")
	}
	switch {
	case hasGiven:
		return converted, problems
	case !attr.Computed:
		return cty.NullVal(ty), problems
	}
	val, ok := c.generate(ty)
	if !ok {
		return cty.NullVal(ty), append(problems, problem{summary: "Failed to generate mock value", detail: fmt.Sprintf("Mock value cannot be generated for dynamic type. Please specify the `%s` field explicitly in the configuration.", name)})
	}
	return val, problems
}

// nestedBlock keeps blocks as configuration wrote them (a provider's
// answer must), filling in their computed attributes.
func (c *composer) nestedBlock(name string, nb *schema.NestedBlock, cfgVal cty.Value, given map[string]cty.Value) (cty.Value, []problem) {
	want, hasGiven := given[name]
	if hasGiven && !want.Type().IsObjectType() {
		return nb.EmptyValue(), []problem{{summary: fmt.Sprintf("Invalid override for block field `%s`", name), detail: fmt.Sprintf("Blocks can be overridden only by objects, got `%s`.", want.Type().FriendlyName())}}
	}
	present := cfgVal != cty.NilVal && !cfgVal.IsNull() && cfgVal.IsKnown() &&
		!(cfgVal.Type().IsCollectionType() && cfgVal.LengthInt() == 0)
	if !present {
		if hasGiven {
			return nb.EmptyValue(), []problem{{summary: fmt.Sprintf("Invalid override for block field `%s`", name), detail: "Cannot override block value, because it's not present in configuration."}}
		}
		return nb.EmptyValue(), nil
	}
	var inner map[string]cty.Value
	if hasGiven {
		inner = want.AsValueMap()
	}
	ty := nb.ImpliedType()
	var problems []problem
	each := func(v cty.Value) cty.Value {
		val, more := c.compose(&nb.Block, v, inner)
		problems = append(problems, more...)
		return val
	}
	switch {
	case ty.IsObjectType():
		return each(cfgVal), problems
	case ty.IsMapType():
		elems := map[string]cty.Value{}
		for it := cfgVal.ElementIterator(); it.Next(); {
			k, v := it.Element()
			elems[k.AsString()] = each(v)
		}
		return cty.MapVal(elems), problems
	case ty.IsListType() || ty.IsSetType():
		var elems []cty.Value
		for it := cfgVal.ElementIterator(); it.Next(); {
			_, v := it.Element()
			elems = append(elems, each(v))
		}
		if ty.IsListType() {
			return cty.ListVal(elems), problems
		}
		return cty.SetVal(elems), problems
	}
	return cfgVal, append(problems, problem{summary: fmt.Sprintf("Unexpected block type: %s", ty.FriendlyName()), detail: fmt.Sprintf("Failed to generate mock value for the block `%s`.", name)})
}

// generate makes a value of type ty by OpenTofu's rules; false for types
// with dynamic parts, which have no value to generate.
func (c *composer) generate(ty cty.Type) (cty.Value, bool) {
	switch {
	case ty.HasDynamicTypes():
		return cty.NilVal, false
	case ty == cty.Number:
		return cty.Zero, true
	case ty == cty.Bool:
		return cty.False, true
	case ty == cty.String:
		return cty.StringVal(c.randomString()), true
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType()), true
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType()), true
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType()), true
	case ty.IsTupleType():
		return cty.EmptyTupleVal, true
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for _, name := range sortedNames(ty.AttributeTypes()) {
			if ty.AttributeOptional(name) {
				continue
			}
			v, ok := c.generate(ty.AttributeType(name))
			if !ok {
				return cty.NilVal, false
			}
			attrs[name] = v
		}
		return cty.ObjectVal(attrs), true
	}
	return cty.NilVal, false
}

func (c *composer) randomString() string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890"
	const minLength, maxLength = 4, 16
	n := c.rand.Intn(maxLength-minLength) + minLength
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(chars[c.rand.Intn(len(chars))])
	}
	return b.String()
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
