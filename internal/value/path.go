package value

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/proto/tfplugin5"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// PathFromProto6 converts a protocol 6 attribute path.
func PathFromProto6(p *tfplugin6.AttributePath) cty.Path {
	if p == nil {
		return nil
	}
	path := make(cty.Path, 0, len(p.Steps))
	for _, step := range p.Steps {
		switch sel := step.Selector.(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			path = append(path, cty.GetAttrStep{Name: sel.AttributeName})
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			path = append(path, cty.IndexStep{Key: cty.NumberIntVal(sel.ElementKeyInt)})
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			path = append(path, cty.IndexStep{Key: cty.StringVal(sel.ElementKeyString)})
		}
	}
	return path
}

// PathToProto6 converts a path to protocol 6 form. Steps the protocol cannot
// express (set elements, unknown keys) end the path there: the protocol's
// paths address the nearest expressible ancestor.
func PathToProto6(path cty.Path) *tfplugin6.AttributePath {
	out := &tfplugin6.AttributePath{}
	for _, step := range path {
		var s *tfplugin6.AttributePath_Step
		switch st := step.(type) {
		case cty.GetAttrStep:
			s = &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_AttributeName{AttributeName: st.Name}}
		case cty.IndexStep:
			s = indexStep6(st.Key)
		}
		if s == nil {
			break
		}
		out.Steps = append(out.Steps, s)
	}
	return out
}

func indexStep6(key cty.Value) *tfplugin6.AttributePath_Step {
	if !key.IsKnown() || key.IsNull() {
		return nil
	}
	switch key.Type() {
	case cty.String:
		return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_ElementKeyString{ElementKeyString: key.AsString()}}
	case cty.Number:
		i, acc := key.AsBigFloat().Int64()
		if acc != 0 {
			return nil
		}
		return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_ElementKeyInt{ElementKeyInt: i}}
	}
	return nil
}

// PathFromProto5 converts a protocol 5 attribute path.
func PathFromProto5(p *tfplugin5.AttributePath) cty.Path {
	if p == nil {
		return nil
	}
	path := make(cty.Path, 0, len(p.Steps))
	for _, step := range p.Steps {
		switch sel := step.Selector.(type) {
		case *tfplugin5.AttributePath_Step_AttributeName:
			path = append(path, cty.GetAttrStep{Name: sel.AttributeName})
		case *tfplugin5.AttributePath_Step_ElementKeyInt:
			path = append(path, cty.IndexStep{Key: cty.NumberIntVal(sel.ElementKeyInt)})
		case *tfplugin5.AttributePath_Step_ElementKeyString:
			path = append(path, cty.IndexStep{Key: cty.StringVal(sel.ElementKeyString)})
		}
	}
	return path
}

// PathToProto5 converts a path to protocol 5 form, with PathToProto6's rules.
func PathToProto5(path cty.Path) *tfplugin5.AttributePath {
	out := &tfplugin5.AttributePath{}
	for _, step := range path {
		var s *tfplugin5.AttributePath_Step
		switch st := step.(type) {
		case cty.GetAttrStep:
			s = &tfplugin5.AttributePath_Step{Selector: &tfplugin5.AttributePath_Step_AttributeName{AttributeName: st.Name}}
		case cty.IndexStep:
			if s6 := indexStep6(st.Key); s6 != nil {
				switch sel := s6.Selector.(type) {
				case *tfplugin6.AttributePath_Step_ElementKeyString:
					s = &tfplugin5.AttributePath_Step{Selector: &tfplugin5.AttributePath_Step_ElementKeyString{ElementKeyString: sel.ElementKeyString}}
				case *tfplugin6.AttributePath_Step_ElementKeyInt:
					s = &tfplugin5.AttributePath_Step{Selector: &tfplugin5.AttributePath_Step_ElementKeyInt{ElementKeyInt: sel.ElementKeyInt}}
				}
			}
		}
		if s == nil {
			break
		}
		out.Steps = append(out.Steps, s)
	}
	return out
}
