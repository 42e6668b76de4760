package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// unmarshalPaths decodes sensitive_attributes: a list of paths, each a list
// of steps {"type":"get_attr","value":NAME} or {"type":"index","value":KEY}
// where KEY is a typed cty JSON value such as {"value":1,"type":"number"}.
func unmarshalPaths(src json.RawMessage) ([]cty.Path, error) {
	if len(src) == 0 || bytes.Equal(src, []byte("null")) {
		return nil, nil
	}
	var rawPaths [][]pathStepV4
	if err := json.Unmarshal(src, &rawPaths); err != nil {
		return nil, fmt.Errorf("expected a list of attribute paths: %w", err)
	}
	paths := make([]cty.Path, 0, len(rawPaths))
	for _, rawPath := range rawPaths {
		path := make(cty.Path, 0, len(rawPath))
		for _, step := range rawPath {
			switch step.Type {
			case "get_attr":
				var name string
				if err := json.Unmarshal(step.Value, &name); err != nil {
					return nil, fmt.Errorf("a get_attr step needs a string name, not %s", step.Value)
				}
				path = append(path, cty.GetAttrStep{Name: name})
			case "index":
				key, err := ctyjson.Unmarshal(step.Value, cty.DynamicPseudoType)
				if err != nil {
					return nil, fmt.Errorf("an index step needs a typed key such as {\"value\":0,\"type\":\"number\"}, not %s: %w", step.Value, err)
				}
				path = append(path, cty.IndexStep{Key: key})
			default:
				return nil, fmt.Errorf("unknown path step type %q; it must be \"get_attr\" or \"index\"", step.Type)
			}
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// marshalPaths encodes paths as unmarshalPaths reads them. An empty list is
// written as [], as Terraform writes it.
func marshalPaths(paths []cty.Path) (json.RawMessage, error) {
	rawPaths := make([][]pathStepV4, 0, len(paths))
	for _, path := range paths {
		rawPath := make([]pathStepV4, 0, len(path))
		for _, step := range path {
			switch step := step.(type) {
			case cty.GetAttrStep:
				name, err := json.Marshal(step.Name)
				if err != nil {
					return nil, err
				}
				rawPath = append(rawPath, pathStepV4{Type: "get_attr", Value: name})
			case cty.IndexStep:
				key, err := ctyjson.Marshal(step.Key, cty.DynamicPseudoType)
				if err != nil {
					return nil, fmt.Errorf("encoding index key %#v: %w", step.Key, err)
				}
				rawPath = append(rawPath, pathStepV4{Type: "index", Value: key})
			default:
				return nil, fmt.Errorf("unsupported path step %T", step)
			}
		}
		rawPaths = append(rawPaths, rawPath)
	}
	return json.Marshal(rawPaths)
}
