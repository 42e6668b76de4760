package schema

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/zclconf/go-cty/cty"
)

// blockTypeName is what a nested block type may be called.
var blockTypeName = regexp.MustCompile(`^[a-z0-9_]+$`)

// InternalValidate checks that a schema, as a provider sent it, follows the
// rules the rest of the engine relies on, and returns every violation found,
// each naming the attribute or block type by its dotted path. A provider
// whose schema fails this has a bug; the engine should refuse to use it
// rather than decode configuration against it.
func (b *Block) InternalValidate() error {
	if b == nil {
		return errors.New("the schema has no top-level block")
	}
	return errors.Join(b.internalValidate("")...)
}

func (b *Block) internalValidate(prefix string) []error {
	var errs []error
	for name, attr := range b.Attributes {
		if attr == nil {
			errs = append(errs, fmt.Errorf("%s%s: the attribute has no schema", prefix, name))
			continue
		}
		errs = append(errs, attr.internalValidate(prefix+name)...)
	}
	for name, nested := range b.BlockTypes {
		where := prefix + name
		switch {
		case nested == nil:
			errs = append(errs, fmt.Errorf("%s: the block type has no schema", where))
			continue
		case b.Attributes[name] != nil:
			errs = append(errs, fmt.Errorf("%s: the name is both an attribute and a block type", where))
		case !blockTypeName.MatchString(name):
			errs = append(errs, fmt.Errorf("%s: a block type name may contain only lowercase letters, digits and underscores", where))
		}
		errs = append(errs, nested.validateItems(where)...)
		errs = append(errs, nested.Block.internalValidate(where+".")...)
	}
	return errs
}

// validateItems checks the nesting mode and the item bounds it allows.
func (b *NestedBlock) validateItems(where string) []error {
	var errs []error
	if b.MinItems < 0 || b.MaxItems < 0 {
		errs = append(errs, fmt.Errorf("%s: MinItems and MaxItems may not be negative", where))
	}
	switch b.Nesting {
	case NestingSingle:
		if b.MinItems > 1 || b.MaxItems > 1 || b.MinItems != b.MaxItems {
			errs = append(errs, fmt.Errorf("%s: a single block's MinItems and MaxItems must both be 0 or both be 1", where))
		}
	case NestingGroup, NestingMap:
		if b.MinItems != 0 || b.MaxItems != 0 {
			errs = append(errs, fmt.Errorf("%s: MinItems and MaxItems cannot be used with %s nesting", where, b.Nesting))
		}
	case NestingList, NestingSet:
		if b.MaxItems != 0 && b.MinItems > b.MaxItems {
			errs = append(errs, fmt.Errorf("%s: MinItems (%d) is greater than MaxItems (%d)", where, b.MinItems, b.MaxItems))
		}
		if b.Nesting == NestingSet && b.Block.specType().HasDynamicTypes() {
			// A set must know its elements' exact type to tell them apart.
			errs = append(errs, fmt.Errorf("%s: a set of blocks may not contain dynamically-typed attributes", where))
		}
	default:
		errs = append(errs, fmt.Errorf("%s: invalid nesting mode %s", where, b.Nesting))
	}
	return errs
}

func (a *Attribute) internalValidate(where string) []error {
	var errs []error
	switch {
	case !a.Optional && !a.Required && !a.Computed:
		errs = append(errs, fmt.Errorf("%s: the attribute must be Optional, Required or Computed", where))
	case a.Optional && a.Required:
		errs = append(errs, fmt.Errorf("%s: the attribute cannot be both Optional and Required", where))
	case a.Computed && a.Required:
		errs = append(errs, fmt.Errorf("%s: the attribute cannot be both Computed and Required", where))
	}
	switch {
	case a.Type == cty.NilType && a.NestedType == nil:
		errs = append(errs, fmt.Errorf("%s: the attribute has neither a type nor a nested type", where))
	case a.Type != cty.NilType && a.NestedType != nil:
		errs = append(errs, fmt.Errorf("%s: the attribute has both a type and a nested type", where))
	}
	if a.NestedType == nil {
		return errs
	}
	switch a.NestedType.Nesting {
	case NestingSingle, NestingList, NestingMap:
	case NestingSet:
		if a.NestedType.specType().HasDynamicTypes() {
			errs = append(errs, fmt.Errorf("%s: a set of nested objects may not contain dynamically-typed attributes", where))
		}
	default:
		errs = append(errs, fmt.Errorf("%s: invalid nesting mode %s for a nested attribute type", where, a.NestedType.Nesting))
	}
	for name, nestedAttr := range a.NestedType.Attributes {
		if nestedAttr == nil {
			errs = append(errs, fmt.Errorf("%s.%s: the attribute has no schema", where, name))
			continue
		}
		errs = append(errs, nestedAttr.internalValidate(where+"."+name)...)
	}
	return errs
}
