package ui

import (
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/plans"
)

// elementsOf lists the elements of a known list, set or tuple value, in
// order, each keeping its own marks; nil when there is no value.
func elementsOf(v cty.Value) []cty.Value {
	if absent(v) || !v.IsKnown() {
		return nil
	}
	v, _ = v.Unmark() // a marked collection was hidden before reaching here
	if !v.CanIterateElements() {
		return nil
	}
	out := make([]cty.Value, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, element := it.Element()
		out = append(out, element)
	}
	return out
}

// entriesOf maps the keys of a known map or object value to its elements;
// nil when there is no value.
func entriesOf(v cty.Value) map[string]cty.Value {
	if absent(v) || !v.IsKnown() {
		return nil
	}
	v, _ = v.Unmark()
	if !v.CanIterateElements() {
		return nil
	}
	out := make(map[string]cty.Value, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		key, element := it.Element()
		out[key.AsString()] = element
	}
	return out
}

// sliceChange is a change to a sequence, split into its elements once.
type sliceChange struct {
	change
	befores, afters []cty.Value
}

func (c change) asSlice() sliceChange {
	return sliceChange{change: c, befores: elementsOf(c.before), afters: elementsOf(c.after)}
}

// element is the change between the before element at beforeIndex and the
// after element at afterIndex; an index out of range means that side has
// no element. Elements of a sequence are explicit: a null element is shown
// as null, not left out.
func (s sliceChange) element(beforeIndex, afterIndex int, step cty.PathStep) change {
	out := change{path: extendPath(s.path, step), allRelevant: s.allRelevant, ctx: s.ctx}
	if beforeIndex >= 0 && beforeIndex < len(s.befores) {
		out.before = s.befores[beforeIndex]
	}
	if afterIndex >= 0 && afterIndex < len(s.afters) {
		out.after = s.afters[afterIndex]
	}
	return out
}

func indexStep(i int) cty.PathStep { return cty.IndexStep{Key: cty.NumberIntVal(int64(i))} }

// index is the change to the elements at the same position on both sides.
func (c change) index(beforeIndex, afterIndex int) change {
	return c.asSlice().element(beforeIndex, afterIndex, indexStep(max(beforeIndex, afterIndex)))
}

// sliceAction is a sequence's own action before its elements are counted.
func (s sliceChange) sliceAction() plans.Action {
	switch {
	case s.befores != nil && s.afters == nil:
		return plans.Delete
	case s.befores == nil && s.afters != nil:
		return plans.Create
	}
	return plans.NoOp
}

// diffList diffs an ordered list by its longest common subsequence, so an
// element inserted in the middle shows as one insertion rather than as
// every later element changing. A changed element is shown removed and
// re-added, unless shouldPair says to diff it with the element that took
// its place.
func diffList(c change, elementDiff func(change) diffNode, shouldPair pairing) diffNode {
	elements, action := diffSequence(c.asSlice(), elementDiff, shouldPair)
	return diffNode{action: action, replace: c.replaces(), view: listView{elements: elements, showContext: true}}
}

func diffSequence(s sliceChange, elementDiff func(change) diffNode, shouldPair pairing) ([]diffNode, plans.Action) {
	action := s.sliceAction()
	var elements []diffNode
	for _, pair := range pairSequences(unmarkAll(s.befores), unmarkAll(s.afters), shouldPair) {
		element := s.element(pair[0], pair[1], indexStep(max(pair[0], pair[1])))
		// Within a shown list every element is shown: which positions a
		// relevant attribute refers to cannot be told once they move.
		element.allRelevant = true
		node := elementDiff(element)
		elements = append(elements, node)
		action = compareActions(action, node.action)
	}
	return elements, action
}

// pairing decides whether a changed element of a sequence is diffed with
// the element that took its place (true) or shown removed and the other
// added (false). It sees both elements without marks.
type pairing func(before, after cty.Value) bool

// neverPair shows every changed element as removed and re-added: the
// lines of a multi-line string.
func neverPair(_, _ cty.Value) bool { return false }

// typedListPairing is OpenTofu's rule for a list attribute's elements
// (internal/command/jsonformat/differ/list.go): objects change in place,
// and so do multi-line strings that share a line; everything else,
// strings, numbers and inner lists among them, is removed and re-added.
func typedListPairing(elementType cty.Type) pairing {
	return func(before, after cty.Value) bool {
		return elementType.IsObjectType() || multilineStringsShareLine(before, after)
	}
}

// jsonPairing is OpenTofu's rule for the elements of a value whose type
// the schema leaves open, and of a JSON document's arrays
// (internal/command/jsonformat/jsondiff/diff.go): objects, maps included,
// change in place, and so do multi-line strings that share a line.
func jsonPairing(before, after cty.Value) bool {
	objectLike := func(v cty.Value) bool {
		return !v.IsNull() && v.IsKnown() && (v.Type().IsObjectType() || v.Type().IsMapType())
	}
	return objectLike(before) && objectLike(after) || multilineStringsShareLine(before, after)
}

// multilineStringsShareLine is OpenTofu's ShouldDiffMultilineStrings: two
// strings, one of them spanning lines, with at least one line in common.
func multilineStringsShareLine(before, after cty.Value) bool {
	isString := func(v cty.Value) bool { return v.Type() == cty.String && v.IsKnown() && !v.IsNull() }
	if !isString(before) || !isString(after) {
		return false
	}
	a, b := before.AsString(), after.AsString()
	if !strings.Contains(a, "\n") && !strings.Contains(b, "\n") {
		return false
	}
	lines := map[string]bool{}
	for _, line := range strings.Split(a, "\n") {
		lines[line] = true
	}
	for _, line := range strings.Split(b, "\n") {
		if lines[line] {
			return true
		}
	}
	return false
}

// pairSequences walks two sequences of unmarked values along their longest
// common subsequence, as OpenTofu's collections.ProcessSlice does, and
// returns the pairs of indices to show, in order: common elements pair with
// each other; an element that is not common pairs with the next element of
// the other side when shouldPair says so, and is otherwise removed (-1
// after) or added (-1 before).
func pairSequences(before, after []cty.Value, shouldPair pairing) [][2]int {
	common := longestCommonSubsequence(before, after)
	var pairs [][2]int
	b, a, c := 0, 0, 0
	isCommon := func(v cty.Value) bool { return c < len(common) && v.RawEquals(common[c]) }
	for b < len(before) || a < len(after) || c < len(common) {
		for b < len(before) && !isCommon(before[b]) {
			if a < len(after) && shouldPair(before[b], after[a]) && !isCommon(after[a]) {
				pairs = append(pairs, [2]int{b, a})
				b++
				a++
				continue
			}
			pairs = append(pairs, [2]int{b, -1})
			b++
		}
		for a < len(after) && !isCommon(after[a]) {
			// As in ProcessSlice, an added element may pair with the next
			// before element even when that one is common.
			if b < len(before) && shouldPair(before[b], after[a]) {
				pairs = append(pairs, [2]int{b, a})
				b++
				a++
				continue
			}
			pairs = append(pairs, [2]int{-1, a})
			a++
		}
		if c < len(common) {
			pairs = append(pairs, [2]int{b, a})
			b++
			a++
			c++
		}
	}
	return pairs
}

func unmarkAll(values []cty.Value) []cty.Value {
	out := make([]cty.Value, len(values))
	for i, v := range values {
		out[i], _ = v.UnmarkDeep()
	}
	return out
}

// maxSubsequenceCells bounds the table the longest common subsequence is
// found with (xs × ys entries, after common ends are trimmed): beyond it,
// two long and very different sequences are shown as having nothing in
// common rather than costing gigabytes to compare.
const maxSubsequenceCells = 1 << 22

// longestCommonSubsequence returns the longest sequence of values that
// appears, in order, in both xs and ys. Unknown values equal nothing.
func longestCommonSubsequence(xs, ys []cty.Value) []cty.Value {
	equal := func(x, y cty.Value) bool { return x.IsWhollyKnown() && x.RawEquals(y) }
	// Most changes touch a few elements of a long list: the common ends
	// are part of the answer and need no table.
	prefix := 0
	for prefix < len(xs) && prefix < len(ys) && equal(xs[prefix], ys[prefix]) {
		prefix++
	}
	suffix := 0
	for suffix < len(xs)-prefix && suffix < len(ys)-prefix && equal(xs[len(xs)-1-suffix], ys[len(ys)-1-suffix]) {
		suffix++
	}
	out := append([]cty.Value(nil), xs[:prefix]...)
	out = append(out, middleSubsequence(xs[prefix:len(xs)-suffix], ys[prefix:len(ys)-suffix], equal)...)
	return append(out, xs[len(xs)-suffix:]...)
}

func middleSubsequence(xs, ys []cty.Value, equal func(x, y cty.Value) bool) []cty.Value {
	if len(xs) == 0 || len(ys) == 0 || len(xs)*len(ys) > maxSubsequenceCells {
		return nil
	}
	// lengths[i*width+j] is the length of the answer for xs[i:] and ys[j:].
	width := len(ys) + 1
	lengths := make([]int32, (len(xs)+1)*width)
	for i := len(xs) - 1; i >= 0; i-- {
		for j := len(ys) - 1; j >= 0; j-- {
			if equal(xs[i], ys[j]) {
				lengths[i*width+j] = lengths[(i+1)*width+j+1] + 1
			} else {
				lengths[i*width+j] = max(lengths[(i+1)*width+j], lengths[i*width+j+1])
			}
		}
	}
	var out []cty.Value
	for i, j := 0, 0; i < len(xs) && j < len(ys); {
		switch {
		case equal(xs[i], ys[j]):
			out = append(out, xs[i])
			i++
			j++
		case lengths[(i+1)*width+j] >= lengths[i*width+j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// diffPositional pairs elements by position, for lists of nested objects
// and blocks, whose elements are objects that change in place.
func diffPositional(c change, elementDiff func(change) diffNode, view listView) diffNode {
	elements, action := diffPositionalElements(c, elementDiff)
	view.elements = elements
	return diffNode{action: action, replace: c.replaces(), view: view}
}

func diffPositionalElements(c change, elementDiff func(change) diffNode) ([]diffNode, plans.Action) {
	s := c.asSlice()
	action := c.iterationAction()
	var elements []diffNode
	for i := 0; i < len(s.befores) || i < len(s.afters); i++ {
		element := s.element(i, i, indexStep(i))
		if !element.relevant() {
			element = element.asNoOp()
		}
		node := elementDiff(element)
		elements = append(elements, node)
		action = compareActions(action, node.action)
	}
	return elements, action
}

// diffSet pairs equal elements of a set and shows the rest as removed or
// added: set elements have no identity but their value.
func diffSet(c change, elementDiff func(change) diffNode, nested bool) diffNode {
	elements, action := diffSetElements(c, elementDiff)
	return diffNode{action: action, replace: c.replaces(), view: setView{elements: elements, nested: nested}}
}

func diffSetElements(c change, elementDiff func(change) diffNode) ([]diffNode, plans.Action) {
	s := c.asSlice()
	action := c.iterationAction()
	plainBefore, plainAfter := unmarkAll(s.befores), unmarkAll(s.afters)
	matchOf := make([]int, len(s.befores)) // before index → after index, or -1
	matched := make([]bool, len(s.afters))
	for i, before := range plainBefore {
		matchOf[i] = -1
		for j, after := range plainAfter {
			if !matched[j] && before.IsWhollyKnown() && before.RawEquals(after) && sameSensitivity(s.befores[i], s.afters[j]) {
				matchOf[i], matched[j] = j, true
				break
			}
		}
	}
	var elements []diffNode
	add := func(beforeIndex, afterIndex int) {
		key := cty.DynamicVal
		if afterIndex >= 0 {
			key = plainAfter[afterIndex]
		} else if beforeIndex >= 0 {
			key = plainBefore[beforeIndex]
		}
		element := s.element(beforeIndex, afterIndex, cty.IndexStep{Key: key})
		element.allRelevant = true
		node := elementDiff(element)
		elements = append(elements, node)
		action = compareActions(action, node.action)
	}
	for i := range s.befores {
		add(i, matchOf[i])
	}
	for j := range s.afters {
		if !matched[j] {
			add(-1, j)
		}
	}
	return elements, action
}

func sameSensitivity(a, b cty.Value) bool {
	_, aMarks := a.UnmarkDeepWithPaths()
	_, bMarks := b.UnmarkDeepWithPaths()
	return len(aMarks) == len(bMarks)
}

// diffMap diffs a map key by key. Maps of nested objects render their
// elements as blocks of attributes.
func diffMap(c change, elementDiff func(change) diffNode, nested bool) diffNode {
	elements, action := diffMapElements(c, elementDiff, false)
	return diffNode{action: action, replace: c.replaces(), view: mapView{elements: elements, nested: nested}}
}

// diffMapElements diffs each key of a map or object value; attrSteps
// names the children as attributes (objects) rather than by index (maps).
func diffMapElements(c change, elementDiff func(change) diffNode, attrSteps bool) (map[string]diffNode, plans.Action) {
	befores, afters := entriesOf(c.before), entriesOf(c.after)
	action := plans.NoOp
	switch {
	case befores != nil && afters == nil:
		action = plans.Delete
	case befores == nil && afters != nil:
		action = plans.Create
	}
	elements := make(map[string]diffNode, max(len(befores), len(afters)))
	for _, key := range unionKeys(befores, afters) {
		var step cty.PathStep = cty.IndexStep{Key: cty.StringVal(key)}
		if attrSteps {
			step = cty.GetAttrStep{Name: key}
		}
		element := change{path: extendPath(c.path, step), allRelevant: c.allRelevant, ctx: c.ctx}
		if v, ok := befores[key]; ok {
			element.before = v
		}
		if v, ok := afters[key]; ok {
			element.after = v
		}
		if !element.relevant() {
			element = element.asNoOp()
		}
		node := elementDiff(element)
		elements[key] = node
		action = compareActions(action, node.action)
	}
	return elements, action
}

func unionKeys(a, b map[string]cty.Value) []string {
	keys := make([]string, 0, max(len(a), len(b)))
	for key := range a {
		keys = append(keys, key)
	}
	for key := range b {
		if _, seen := a[key]; !seen {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	return keys
}
