package jsonplan

import (
	"encoding/json"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/plans"
)

// PlannedValues are the root outputs and resource instances as they will be
// once the plan is applied, unknown parts left out.
type PlannedValues struct {
	Outputs    map[string]PlannedOutput `json:"outputs,omitempty"`
	RootModule jsonstate.Module         `json:"root_module"`
}

// PlannedOutput is an output's planned value; Value and Type are absent
// when it is not yet known.
type PlannedOutput struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
}

// outputChanges renders root output changes. The plan keeps only whether
// an output is sensitive as a whole, so both sensitive mirrors are that
// one flag.
func outputChanges(changes []*plans.OutputChangeSrc) (map[string]Change, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	out := make(map[string]Change, len(changes))
	for _, src := range changes {
		if !src.Addr.Module.IsRoot() {
			continue
		}
		change, err := src.Decode()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Addr, err)
		}
		rendered, err := newChange(change.Change, false)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Addr, err)
		}
		sensitive, _ := json.Marshal(change.Sensitive)
		rendered.BeforeSensitive, rendered.AfterSensitive = sensitive, sensitive
		if change.After == cty.NilVal || change.After.IsWhollyKnown() {
			rendered.AfterUnknown = json.RawMessage("false")
		}
		out[src.Addr.OutputValue.Name] = rendered
	}
	return out, nil
}

func plannedOutputs(changes []*plans.OutputChangeSrc) (map[string]PlannedOutput, error) {
	out := map[string]PlannedOutput{}
	for _, src := range changes {
		if !src.Addr.Module.IsRoot() || src.Action == plans.Delete {
			continue
		}
		change, err := src.Decode()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Addr, err)
		}
		planned := PlannedOutput{Sensitive: change.Sensitive}
		after, _ := change.After.UnmarkDeep()
		if after != cty.NilVal && after.IsWhollyKnown() {
			if planned.Value, err = ctyjson.Marshal(after, after.Type()); err != nil {
				return nil, fmt.Errorf("%s: %w", src.Addr, err)
			}
			if planned.Type, err = ctyjson.MarshalType(after.Type()); err != nil {
				return nil, fmt.Errorf("%s: %w", src.Addr, err)
			}
		}
		out[src.Addr.OutputValue.Name] = planned
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}
