package schema

import (
	"github.com/terrane/terrane/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// ContainsSensitive reports whether any attribute of the block, of its
// nested attribute types or of its nested blocks, at any depth, is
// sensitive. A value of a block that contains none can be shown whole.
func (b *Block) ContainsSensitive() bool {
	if b == nil {
		return false
	}
	for _, attr := range b.Attributes {
		if attr != nil && attr.containsSensitive() {
			return true
		}
	}
	for _, nested := range b.BlockTypes {
		if nested != nil && nested.Block.ContainsSensitive() {
			return true
		}
	}
	return false
}

// ContainsSensitive reports whether any attribute of the nested attribute
// type, at any depth, is sensitive.
func (o *Object) ContainsSensitive() bool {
	if o == nil {
		return false
	}
	for _, attr := range o.Attributes {
		if attr != nil && attr.containsSensitive() {
			return true
		}
	}
	return false
}

func (a *Attribute) containsSensitive() bool {
	return a.Sensitive || a.NestedType.ContainsSensitive()
}

// SensitivePaths lists the paths within val, a value of the block, that the
// schema declares sensitive: each sensitive attribute, including those inside
// every element of nested blocks and nested attribute collections that val
// has. A sensitive attribute's path is listed even when its value is null, so
// a later value there is already covered; inside it nothing more is listed.
// Marking val with these paths (cty.Value.MarkWithPaths) is how a value read
// from a provider gets the sensitivity its schema promises.
func (b *Block) SensitivePaths(val cty.Value) []cty.Path {
	var paths []cty.Path
	val, _ = marks.UnmarkDeep(val) // marks do not change where the value's parts are
	b.appendSensitivePaths(&paths, nil, val)
	return paths
}

func (b *Block) appendSensitivePaths(paths *[]cty.Path, path cty.Path, val cty.Value) {
	if b == nil || !b.ContainsSensitive() {
		return
	}
	for name, attr := range b.Attributes {
		if attr != nil && attr.Sensitive {
			*paths = append(*paths, extendPath(path, cty.GetAttrStep{Name: name}))
		}
	}
	if val.IsNull() || !val.IsKnown() || !val.Type().IsObjectType() {
		return
	}
	for name, attr := range b.Attributes {
		if attr == nil || attr.Sensitive || !attr.NestedType.ContainsSensitive() || !val.Type().HasAttribute(name) {
			continue
		}
		attr.NestedType.appendSensitivePaths(paths, extendPath(path, cty.GetAttrStep{Name: name}), val.GetAttr(name))
	}
	for name, nested := range b.BlockTypes {
		if nested == nil || !val.Type().HasAttribute(name) {
			continue
		}
		blockPath := extendPath(path, cty.GetAttrStep{Name: name})
		blockVal := val.GetAttr(name)
		switch nested.Nesting {
		case NestingSingle, NestingGroup:
			nested.Block.appendSensitivePaths(paths, blockPath, blockVal)
		default:
			forEachElement(blockVal, func(key, elem cty.Value) {
				nested.Block.appendSensitivePaths(paths, extendPath(blockPath, cty.IndexStep{Key: key}), elem)
			})
		}
	}
}

func (o *Object) appendSensitivePaths(paths *[]cty.Path, path cty.Path, val cty.Value) {
	switch o.Nesting {
	case NestingSingle, NestingGroup:
		o.appendObjectSensitivePaths(paths, path, val)
	default:
		forEachElement(val, func(key, elem cty.Value) {
			o.appendObjectSensitivePaths(paths, extendPath(path, cty.IndexStep{Key: key}), elem)
		})
	}
}

// appendObjectSensitivePaths handles one object of a nested attribute type.
func (o *Object) appendObjectSensitivePaths(paths *[]cty.Path, path cty.Path, val cty.Value) {
	if val.IsNull() || !val.IsKnown() || !val.Type().IsObjectType() {
		return
	}
	for name, attr := range o.Attributes {
		if attr == nil || !val.Type().HasAttribute(name) {
			continue
		}
		attrPath := extendPath(path, cty.GetAttrStep{Name: name})
		switch {
		case attr.Sensitive:
			*paths = append(*paths, attrPath)
		case attr.NestedType.ContainsSensitive():
			attr.NestedType.appendSensitivePaths(paths, attrPath, val.GetAttr(name))
		}
	}
}

// forEachElement calls fn for each element of a known, non-null collection,
// tuple or object value (dynamically-typed block lists and maps are tuples
// and objects).
func forEachElement(val cty.Value, fn func(key, elem cty.Value)) {
	if val.IsNull() || !val.IsKnown() || !val.CanIterateElements() {
		return
	}
	for it := val.ElementIterator(); it.Next(); {
		fn(it.Element())
	}
}

// extendPath copies path and adds a step: paths that share a prefix must not
// share a backing array.
func extendPath(path cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(path), len(path)+1)
	copy(out, path)
	return append(out, step)
}
