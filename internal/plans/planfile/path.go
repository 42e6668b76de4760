package planfile

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/proto/tfplan"
)

// pathToProto converts a cty path. Index keys are encoded with their own
// type (cty.DynamicPseudoType), as the plan file format requires, because a
// path carries no schema to say what the key's type is.
func pathToProto(path cty.Path) (*tfplan.Path, error) {
	steps := make([]*tfplan.Path_Step, 0, len(path))
	for _, step := range path {
		switch step := step.(type) {
		case cty.GetAttrStep:
			steps = append(steps, &tfplan.Path_Step{Selector: &tfplan.Path_Step_AttributeName{AttributeName: step.Name}})
		case cty.IndexStep:
			key, err := value.Encode(step.Key, cty.DynamicPseudoType)
			if err != nil {
				return nil, fmt.Errorf("encoding index key of path %s: %w", value.FormatPath(path), err)
			}
			steps = append(steps, &tfplan.Path_Step{Selector: &tfplan.Path_Step_ElementKey{ElementKey: &tfplan.DynamicValue{Msgpack: key.Msgpack}}})
		default:
			return nil, fmt.Errorf("path %s has a step of unsupported kind %T", value.FormatPath(path), step)
		}
	}
	return &tfplan.Path{Steps: steps}, nil
}

func pathFromProto(raw *tfplan.Path) (cty.Path, error) {
	path := make(cty.Path, 0, len(raw.GetSteps()))
	for i, step := range raw.GetSteps() {
		switch selector := step.GetSelector().(type) {
		case *tfplan.Path_Step_AttributeName:
			path = append(path, cty.GetAttrStep{Name: selector.AttributeName})
		case *tfplan.Path_Step_ElementKey:
			key, err := value.Decode(value.Dynamic{Msgpack: selector.ElementKey.GetMsgpack()}, cty.DynamicPseudoType)
			if err != nil {
				return nil, fmt.Errorf("step %d of path %s: index key: %w", i, value.FormatPath(path), err)
			}
			if key.IsNull() || !key.IsKnown() {
				return nil, fmt.Errorf("step %d of path %s: index key is null or unknown", i, value.FormatPath(path))
			}
			path = append(path, cty.IndexStep{Key: key})
		default:
			return nil, fmt.Errorf("step %d of path %s selects neither an attribute nor an element", i, value.FormatPath(path))
		}
	}
	return path, nil
}

func pathsToProto(paths []cty.Path) ([]*tfplan.Path, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	out := make([]*tfplan.Path, len(paths))
	for i, path := range paths {
		var err error
		if out[i], err = pathToProto(path); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func pathsFromProto(raw []*tfplan.Path) ([]cty.Path, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	out := make([]cty.Path, len(raw))
	for i, path := range raw {
		var err error
		if out[i], err = pathFromProto(path); err != nil {
			return nil, err
		}
	}
	return out, nil
}
