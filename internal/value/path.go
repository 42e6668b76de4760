package value

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/proto/tfplugin5"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// protoStep is one attribute-path step in the form both protocol versions
// share: an attribute name, an integer element key or a string element key.
type protoStep struct {
	kind      protoStepKind
	name      string
	intKey    int64
	stringKey string
}

type protoStepKind int

const (
	stepAttribute protoStepKind = iota
	stepIntKey
	stepStringKey
)

func (s protoStep) toCty() cty.PathStep {
	switch s.kind {
	case stepIntKey:
		return cty.IndexStep{Key: cty.NumberIntVal(s.intKey)}
	case stepStringKey:
		return cty.IndexStep{Key: cty.StringVal(s.stringKey)}
	default:
		return cty.GetAttrStep{Name: s.name}
	}
}

// protoSteps converts a cty path to protocol steps. The protocol can only
// address attributes and elements by a known integer or string key, so the
// steps end at the first one it cannot express — an element of a set (whose
// key is the element itself), an unknown or null key, a fractional number or
// one beyond int64 — and the result addresses the nearest ancestor the
// protocol can name. That is what a provider expects: its diagnostics and
// requires_replace paths stop at set elements the same way.
func protoSteps(path cty.Path) []protoStep {
	steps := make([]protoStep, 0, len(path))
	for _, step := range path {
		switch st := step.(type) {
		case cty.GetAttrStep:
			steps = append(steps, protoStep{kind: stepAttribute, name: st.Name})
		case cty.IndexStep:
			s, ok := indexProtoStep(st.Key)
			if !ok {
				return steps
			}
			steps = append(steps, s)
		default:
			return steps
		}
	}
	return steps
}

func indexProtoStep(key cty.Value) (protoStep, bool) {
	key, _ = key.UnmarkDeep()
	if !key.IsKnown() || key.IsNull() {
		return protoStep{}, false
	}
	switch key.Type() {
	case cty.String:
		return protoStep{kind: stepStringKey, stringKey: key.AsString()}, true
	case cty.Number:
		i, accuracy := key.AsBigFloat().Int64()
		if accuracy != big.Exact {
			return protoStep{}, false
		}
		return protoStep{kind: stepIntKey, intKey: i}, true
	default:
		return protoStep{}, false
	}
}

// PathFromProto6 converts a protocol 6 attribute path. Steps with no
// selector carry no information and are skipped.
func PathFromProto6(p *tfplugin6.AttributePath) cty.Path {
	if p == nil {
		return nil
	}
	path := make(cty.Path, 0, len(p.Steps))
	for _, step := range p.Steps {
		switch sel := step.GetSelector().(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			path = append(path, protoStep{kind: stepAttribute, name: sel.AttributeName}.toCty())
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			path = append(path, protoStep{kind: stepIntKey, intKey: sel.ElementKeyInt}.toCty())
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			path = append(path, protoStep{kind: stepStringKey, stringKey: sel.ElementKeyString}.toCty())
		}
	}
	return path
}

// PathToProto6 converts a path to protocol 6 form. Steps the protocol cannot
// express (set elements, unknown keys) end the path there: the protocol's
// paths address the nearest expressible ancestor.
func PathToProto6(path cty.Path) *tfplugin6.AttributePath {
	steps := protoSteps(path)
	out := &tfplugin6.AttributePath{Steps: make([]*tfplugin6.AttributePath_Step, len(steps))}
	for i, s := range steps {
		step := &tfplugin6.AttributePath_Step{}
		switch s.kind {
		case stepAttribute:
			step.Selector = &tfplugin6.AttributePath_Step_AttributeName{AttributeName: s.name}
		case stepIntKey:
			step.Selector = &tfplugin6.AttributePath_Step_ElementKeyInt{ElementKeyInt: s.intKey}
		case stepStringKey:
			step.Selector = &tfplugin6.AttributePath_Step_ElementKeyString{ElementKeyString: s.stringKey}
		}
		out.Steps[i] = step
	}
	return out
}

// PathFromProto5 converts a protocol 5 attribute path, with PathFromProto6's
// rules.
func PathFromProto5(p *tfplugin5.AttributePath) cty.Path {
	if p == nil {
		return nil
	}
	path := make(cty.Path, 0, len(p.Steps))
	for _, step := range p.Steps {
		switch sel := step.GetSelector().(type) {
		case *tfplugin5.AttributePath_Step_AttributeName:
			path = append(path, protoStep{kind: stepAttribute, name: sel.AttributeName}.toCty())
		case *tfplugin5.AttributePath_Step_ElementKeyInt:
			path = append(path, protoStep{kind: stepIntKey, intKey: sel.ElementKeyInt}.toCty())
		case *tfplugin5.AttributePath_Step_ElementKeyString:
			path = append(path, protoStep{kind: stepStringKey, stringKey: sel.ElementKeyString}.toCty())
		}
	}
	return path
}

// PathToProto5 converts a path to protocol 5 form, with PathToProto6's rules.
func PathToProto5(path cty.Path) *tfplugin5.AttributePath {
	steps := protoSteps(path)
	out := &tfplugin5.AttributePath{Steps: make([]*tfplugin5.AttributePath_Step, len(steps))}
	for i, s := range steps {
		step := &tfplugin5.AttributePath_Step{}
		switch s.kind {
		case stepAttribute:
			step.Selector = &tfplugin5.AttributePath_Step_AttributeName{AttributeName: s.name}
		case stepIntKey:
			step.Selector = &tfplugin5.AttributePath_Step_ElementKeyInt{ElementKeyInt: s.intKey}
		case stepStringKey:
			step.Selector = &tfplugin5.AttributePath_Step_ElementKeyString{ElementKeyString: s.stringKey}
		}
		out.Steps[i] = step
	}
	return out
}

// FormatPath renders a path the way a user writes it in configuration, for
// messages: .tags["env"], .rule[0].port. A set element, whose key is the
// element itself, is shown as [...]; an unknown key as [(known after apply)].
// The empty path, the whole value, renders as ".".
func FormatPath(path cty.Path) string {
	if len(path) == 0 {
		return "."
	}
	var b strings.Builder
	for _, step := range path {
		switch st := step.(type) {
		case cty.GetAttrStep:
			b.WriteByte('.')
			b.WriteString(st.Name)
		case cty.IndexStep:
			b.WriteString(formatIndexKey(st.Key))
		}
	}
	return b.String()
}

func formatIndexKey(key cty.Value) string {
	key, _ = key.UnmarkDeep()
	switch {
	case !key.IsKnown():
		return "[(known after apply)]"
	case key.IsNull():
		return "[null]"
	case key.Type() == cty.String:
		return "[" + strconv.Quote(key.AsString()) + "]"
	case key.Type() == cty.Number:
		return "[" + key.AsBigFloat().Text('f', -1) + "]"
	default:
		return "[...]"
	}
}
