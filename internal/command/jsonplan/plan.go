package jsonplan

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/terrane/terrane/internal/command/jsonconfig"
	"github.com/terrane/terrane/internal/command/jsonstate"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// FormatVersion is the version of the JSON plan representation this
// package writes.
const FormatVersion = "1.2"

// Plan is the JSON representation of a plan.
type Plan struct {
	FormatVersion      string                   `json:"format_version,omitempty"`
	TerraformVersion   string                   `json:"terraform_version,omitempty"`
	Variables          map[string]Variable      `json:"variables,omitempty"`
	PlannedValues      PlannedValues            `json:"planned_values"`
	ResourceDrift      []ResourceChange         `json:"resource_drift,omitempty"`
	ResourceChanges    []ResourceChange         `json:"resource_changes,omitempty"`
	DeferredChanges    []DeferredResourceChange `json:"deferred_changes,omitempty"`
	OutputChanges      map[string]Change        `json:"output_changes,omitempty"`
	PriorState         *jsonstate.State         `json:"prior_state,omitempty"`
	Config             *jsonconfig.Config       `json:"configuration,omitempty"`
	RelevantAttributes []ResourceAttr           `json:"relevant_attributes,omitempty"`
	Checks             []jsonstate.CheckResult  `json:"checks,omitempty"`
	Timestamp          string                   `json:"timestamp,omitempty"`
	// Errored is the one plan quality OpenTofu's format has: Terraform's
	// "applyable" and "complete" are not part of it.
	Errored bool `json:"errored"`
}

// Variable is the value a root module variable had when planning.
type Variable struct {
	Value json.RawMessage `json:"value,omitempty"`
}

// ResourceAttr names a drifted attribute that may have contributed to the
// plan's changes.
type ResourceAttr struct {
	Resource string          `json:"resource"`
	Attr     json.RawMessage `json:"attribute"`
}

// DeferredResourceChange is a change the plan left for a later run.
type DeferredResourceChange struct {
	Reason         string         `json:"reason"`
	ResourceChange ResourceChange `json:"resource_change"`
}

// Input is what a plan is rendered from.
type Input struct {
	Plan *plans.Plan
	// Config is the configuration the plan was made from; nil leaves the
	// "configuration" section out.
	Config *config.Config
	// PriorState is the state the plan was made from, refreshed; nil leaves
	// the "prior_state" section out.
	PriorState *states.State
	Schemas    *providers.Schemas
	// EngineVersion is reported as "terraform_version"; empty means the
	// version recorded in the plan.
	EngineVersion string
}

// New renders a plan.
func New(in Input) (*Plan, error) {
	plan := in.Plan
	version := in.EngineVersion
	if version == "" {
		version = plan.EngineVersion
	}
	out := &Plan{
		FormatVersion:    FormatVersion,
		TerraformVersion: version,
		Errored:          plan.Errored,
	}
	if !plan.Timestamp.IsZero() {
		out.Timestamp = plan.Timestamp.UTC().Format(time.RFC3339)
	}
	var err error
	if out.Variables, err = variables(plan, in.Config); err != nil {
		return nil, err
	}
	r := renderer{schemas: in.Schemas}
	if err := r.changes(plan, out); err != nil {
		return nil, err
	}
	// As OpenTofu does, a prior state with neither resources nor outputs
	// is left out rather than shown empty.
	if in.PriorState != nil && !stateEmpty(in.PriorState) {
		if out.PriorState, err = jsonstate.New(in.PriorState, in.Schemas, version); err != nil {
			return nil, fmt.Errorf("prior state: %w", err)
		}
	}
	if in.Config != nil {
		out.Config = jsonconfig.New(in.Config, in.Schemas)
	}
	if out.RelevantAttributes, err = relevantAttributes(plan.RelevantAttributes); err != nil {
		return nil, err
	}
	if out.Checks, err = jsonstate.ChecksFromPlan(plan.Checks); err != nil {
		return nil, err
	}
	return out, nil
}

// stateEmpty is OpenTofu's State.Empty: no resource instance and no
// output in any module.
func stateEmpty(state *states.State) bool {
	return len(state.Outputs) == 0 && len(state.AllResourceInstances()) == 0
}

// Marshal is New encoded as JSON.
func Marshal(in Input) ([]byte, error) {
	out, err := New(in)
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// variables renders the root variables' values: those the plan recorded,
// and the defaults of the others.
func variables(plan *plans.Plan, cfg *config.Config) (map[string]Variable, error) {
	out := make(map[string]Variable, len(plan.VariableValues))
	if cfg != nil {
		for name, variable := range cfg.Module.Variables {
			if value := jsonconfig.VariableDefault(variable); value != nil {
				out[name] = Variable{Value: value}
			}
		}
	}
	for name := range plan.VariableValues {
		val, err := plan.VariableValue(name)
		if err != nil {
			return nil, err
		}
		val, _ = val.UnmarkDeep()
		if !val.IsWhollyKnown() {
			out[name] = Variable{}
			continue
		}
		raw, err := ctyjson.Marshal(val, val.Type())
		if err != nil {
			return nil, fmt.Errorf("variable %q: %w", name, err)
		}
		out[name] = Variable{Value: raw}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func relevantAttributes(attrs []plans.ResourceAttr) ([]ResourceAttr, error) {
	out := make([]ResourceAttr, 0, len(attrs))
	for _, attr := range attrs {
		path, err := marshalPath(attr.Attr)
		if err != nil {
			return nil, fmt.Errorf("relevant attribute of %s: %w", attr.Resource, err)
		}
		out = append(out, ResourceAttr{Resource: attr.Resource.String(), Attr: path})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Resource < out[j].Resource })
	return out, nil
}
