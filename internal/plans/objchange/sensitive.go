package objchange

import (
	"github.com/terrane/terrane/internal/marks"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/schema"
)

// sensitivity remembers where the values being checked were marked, so an
// error about an attribute that is sensitive — by schema or by mark — says
// only that something is wrong, never what the value was.
type sensitivity struct {
	markedPaths []cty.Path
}

// unmarkAll unmarks every value deeply, remembering where marks were.
func (s *sensitivity) unmarkAll(vals ...*cty.Value) {
	for _, v := range vals {
		unmarked, pvm := marks.UnmarkDeepWithPaths(*v)
		*v = unmarked
		for _, m := range pvm {
			s.markedPaths = append(s.markedPaths, m.Path)
		}
	}
}

// at reports whether the attribute at path must not have its values shown:
// its schema says so, or a marked value lies at, above or inside it.
func (s *sensitivity) at(attr *schema.Attribute, path cty.Path) bool {
	if attr != nil && attr.Sensitive {
		return true
	}
	for _, marked := range s.markedPaths {
		if pathHasPrefix(path, marked) || pathHasPrefix(marked, path) {
			return true
		}
	}
	return false
}

// redact replaces errs by one error at path saying only what kind of
// problem there is, when the attribute is sensitive.
func (s *sensitivity) redact(errs []error, attr *schema.Attribute, path cty.Path, summary string) []error {
	if len(errs) == 0 || !s.at(attr, path) {
		return errs
	}
	return []error{path.NewErrorf("%s", summary)}
}

func pathHasPrefix(path, prefix cty.Path) bool {
	if len(prefix) > len(path) {
		return false
	}
	for i, step := range prefix {
		if !stepsEqual(step, path[i]) {
			return false
		}
	}
	return true
}

func stepsEqual(a, b cty.PathStep) bool {
	switch a := a.(type) {
	case cty.GetAttrStep:
		b, ok := b.(cty.GetAttrStep)
		return ok && a.Name == b.Name
	case cty.IndexStep:
		b, ok := b.(cty.IndexStep)
		return ok && a.Key.RawEquals(b.Key)
	}
	return false
}

// extend is path with one more step, never sharing the backing array with
// path or its other extensions.
func extend(path cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(path), len(path)+1)
	copy(out, path)
	return append(out, step)
}

func attrStep(path cty.Path, name string) cty.Path {
	return extend(path, cty.GetAttrStep{Name: name})
}

// keyStep is the path step that finds an element of a collection: an index
// for lists, tuples, maps and sets, an attribute for map-like objects.
func keyStep(path cty.Path, coll cty.Value, key cty.Value) cty.Path {
	if coll.Type().IsObjectType() {
		return attrStep(path, key.AsString())
	}
	return extend(path, cty.IndexStep{Key: key})
}
