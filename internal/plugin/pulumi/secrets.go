package pulumi

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"

	"github.com/zclconf/go-cty/cty"
)

// Secrets cross in both directions. Going out, the schema's secret
// attributes and the parts of an object the provider returned as secrets
// last time (kept in the private data) are sent as secrets, when the
// provider accepts secrets. Coming back, every secret in an answer is
// reported in the response's SensitivePaths, so the engine marks it
// sensitive even where the schema does not declare it.

// secretPaths are the paths of rt's schema-secret attributes.
func (rt *ResourceType) secretPaths() []cty.Path {
	names := make([]string, 0, len(rt.Secret))
	for name := range rt.Secret {
		names = append(names, name)
	}
	sort.Strings(names)
	paths := make([]cty.Path, len(names))
	for i, name := range names {
		paths[i] = cty.GetAttrPath(name)
	}
	return paths
}

// objectSecrets are the paths of a stored object to send as secrets: the
// schema's and those the provider returned as secrets.
func (rt *ResourceType) objectSecrets(priv privateData) []cty.Path {
	return append(rt.secretPaths(), priv.Secrets...)
}

// wireOptions is what this provider accepts.
func (p *Provider) wireOptions() wireOptions {
	return wireOptions{secrets: p.acceptSecrets, outputs: p.acceptOutputs}
}

// secretPathList is a list of paths stored in the private data as JSON:
// each path a list of steps, a step being an attribute name (a string), a
// list index (a number) or a map key (an object {"key": K}).
type secretPathList []cty.Path

type mapKeyStep struct {
	Key string `json:"key"`
}

func (l secretPathList) MarshalJSON() ([]byte, error) {
	out := make([][]any, 0, len(l))
	for _, path := range l {
		steps := make([]any, 0, len(path))
		for _, step := range path {
			switch step := step.(type) {
			case cty.GetAttrStep:
				steps = append(steps, step.Name)
			case cty.IndexStep:
				switch {
				case step.Key.Type() == cty.String:
					steps = append(steps, mapKeyStep{Key: step.Key.AsString()})
				case step.Key.Type() == cty.Number:
					i, _ := step.Key.AsBigFloat().Int64()
					steps = append(steps, i)
				default:
					return nil, fmt.Errorf("a path step indexing by %s cannot be stored", step.Key.Type().FriendlyName())
				}
			}
		}
		out = append(out, steps)
	}
	return json.Marshal(out)
}

func (l *secretPathList) UnmarshalJSON(raw []byte) error {
	var paths [][]json.RawMessage
	if err := json.Unmarshal(raw, &paths); err != nil {
		return err
	}
	out := make(secretPathList, 0, len(paths))
	for _, steps := range paths {
		path := make(cty.Path, 0, len(steps))
		for _, rawStep := range steps {
			step, err := decodeStep(rawStep)
			if err != nil {
				return err
			}
			path = append(path, step)
		}
		out = append(out, path)
	}
	*l = out
	return nil
}

func decodeStep(raw json.RawMessage) (cty.PathStep, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		return cty.GetAttrStep{Name: name}, nil
	}
	var index json.Number
	if err := json.Unmarshal(raw, &index); err == nil {
		n, ok := new(big.Float).SetString(index.String())
		if !ok {
			return nil, fmt.Errorf("secret path index %s is not a number", index)
		}
		return cty.IndexStep{Key: cty.NumberVal(n)}, nil
	}
	var key mapKeyStep
	if err := json.Unmarshal(raw, &key); err != nil {
		return nil, fmt.Errorf("secret path step %s is unreadable: %w", raw, err)
	}
	return cty.IndexStep{Key: cty.StringVal(key.Key)}, nil
}
