package jsonview

import (
	"encoding/json"
	"fmt"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
)

// output is one output in an outputs message. After a plan it says what
// will happen to the output; after an apply, its value and type, except
// that a sensitive output's value is never written.
type output struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	Action    string          `json:"action,omitempty"`
}

// PlannedOutputs writes the outputs message of a plan: each root output's
// planned action.
func (v *View) PlannedOutputs(changes []*plans.OutputChangeSrc) {
	outputs := map[string]output{}
	for _, change := range changes {
		if !change.Addr.Module.IsRoot() {
			continue
		}
		outputs[change.Addr.OutputValue.Name] = output{Sensitive: change.Sensitive, Action: ChangeAction(change.Action)}
	}
	if len(outputs) == 0 {
		return
	}
	v.emit(LevelInfo, "outputs", fmt.Sprintf("Outputs: %d", len(outputs)), map[string]any{"outputs": outputs})
}

// Outputs writes the outputs message after an apply: each root output's
// value and type, without the values of sensitive ones.
func (v *View) Outputs(values map[string]*states.OutputValue) {
	outputs := make(map[string]output, len(values))
	for name, value := range values {
		rendered := output{Sensitive: value.Sensitive}
		val, _ := value.Value.UnmarkDeep()
		if ty, err := ctyjson.MarshalType(val.Type()); err == nil {
			rendered.Type = ty
		}
		if !value.Sensitive && val.IsWhollyKnown() {
			if raw, err := ctyjson.Marshal(val, val.Type()); err == nil {
				rendered.Value = raw
			}
		}
		outputs[name] = rendered
	}
	v.emit(LevelInfo, "outputs", fmt.Sprintf("Outputs: %d", len(outputs)), map[string]any{"outputs": outputs})
}
