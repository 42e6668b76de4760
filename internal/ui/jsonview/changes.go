package jsonview

import (
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
)

// ResourceAddr describes a resource instance in messages.
type ResourceAddr struct {
	Addr            string `json:"addr"`
	Module          string `json:"module"`
	Resource        string `json:"resource"`
	ImpliedProvider string `json:"implied_provider"`
	ResourceType    string `json:"resource_type"`
	ResourceName    string `json:"resource_name"`
	// ResourceKey is the instance key: null, a number or a string.
	ResourceKey any `json:"resource_key"`
}

// NewResourceAddr describes addr.
func NewResourceAddr(addr addrs.AbsResourceInstance) ResourceAddr {
	var key any
	switch k := addr.Resource.Key.(type) {
	case addrs.IntKey:
		key = int(k)
	case addrs.StringKey:
		key = string(k)
	}
	return ResourceAddr{
		Addr:            addr.String(),
		Module:          addr.Module.String(),
		Resource:        addr.Resource.String(),
		ImpliedProvider: addr.Resource.Resource.ImpliedProvider(),
		ResourceType:    addr.Resource.Resource.Type,
		ResourceName:    addr.Resource.Resource.Name,
		ResourceKey:     key,
	}
}

// ChangeAction spells an action as UI messages do.
func ChangeAction(action plans.Action) string {
	switch action {
	case plans.NoOp:
		return "noop"
	case plans.Create:
		return "create"
	case plans.Read:
		return "read"
	case plans.Update:
		return "update"
	case plans.DeleteThenCreate, plans.CreateThenDelete, plans.CreateThenForget:
		return "replace"
	case plans.Delete:
		return "delete"
	case plans.Forget:
		return "remove"
	default:
		return action.String()
	}
}

// changeReasons spell the action reasons as UI messages do.
var changeReasons = map[plans.ActionReason]string{
	plans.ReplaceBecauseTainted:         "tainted",
	plans.ReplaceByRequest:              "requested",
	plans.ReplaceByTriggers:             "replace_triggered_by",
	plans.ReplaceBecauseCannotUpdate:    "cannot_update",
	plans.DeleteBecauseNoResourceConfig: "delete_because_no_resource_config",
	plans.DeleteBecauseWrongRepetition:  "delete_because_wrong_repetition",
	plans.DeleteBecauseCountIndex:       "delete_because_count_index",
	plans.DeleteBecauseEachKey:          "delete_because_each_key",
	plans.DeleteBecauseNoModule:         "delete_because_no_module",
	plans.DeleteBecauseNoMoveTarget:     "delete_because_no_move_target",
	plans.DeleteBecauseEnabledFalse:     "delete_because_enabled_false",
	plans.ReadBecauseConfigUnknown:      "read_because_config_unknown",
	plans.ReadBecauseDependencyPending:  "read_because_dependency_pending",
	plans.ReadBecauseCheckNested:        "read_because_check_nested",
}

// resourceChange is the "change" of planned_change and resource_drift
// messages.
type resourceChange struct {
	Resource         ResourceAddr  `json:"resource"`
	PreviousResource *ResourceAddr `json:"previous_resource,omitempty"`
	Action           string        `json:"action"`
	Reason           string        `json:"reason,omitempty"`
	Importing        *importing    `json:"importing,omitempty"`
	GeneratedConfig  string        `json:"generated_config,omitempty"`
}

type importing struct {
	ID string `json:"id,omitempty"`
}

func newResourceChange(change *plans.ResourceInstanceChangeSrc) resourceChange {
	out := resourceChange{
		Resource:        NewResourceAddr(change.Addr),
		Action:          ChangeAction(change.Action),
		Reason:          changeReasons[change.ActionReason],
		GeneratedConfig: change.GeneratedConfig,
	}
	if change.Moved() {
		previous := NewResourceAddr(change.PrevRunAddr)
		out.PreviousResource = &previous
		if change.Action == plans.NoOp {
			out.Action = "move"
		}
	}
	if change.Importing != nil {
		out.Importing = &importing{ID: change.Importing.ID}
		if change.Action == plans.NoOp {
			out.Action = "import"
		}
	}
	return out
}

// PlannedChange writes a planned_change message. Changes that do nothing
// (no-op, neither moving nor importing) are not reported, as in Terraform.
func (v *View) PlannedChange(change *plans.ResourceInstanceChangeSrc) {
	if change.Action == plans.NoOp && !change.Moved() && change.Importing == nil {
		return
	}
	rendered := newResourceChange(change)
	name := change.ObjectName()
	v.emit(LevelInfo, "planned_change", fmt.Sprintf("%s: Plan to %s", name, rendered.Action), map[string]any{"change": rendered})
}

// SavedPlanChanges writes the planned_change messages that begin the apply
// of a saved plan. As Terraform reports them there, only changes with an
// action are listed (a move or an import alone is not), and never the
// delete of a data source, which only drops it from the state.
func (v *View) SavedPlanChanges(changes []*plans.ResourceInstanceChangeSrc) {
	for _, change := range changes {
		if change.Action == plans.NoOp {
			continue
		}
		if change.Action == plans.Delete && change.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
			continue
		}
		v.PlannedChange(change)
	}
}

// ResourceDrift writes a resource_drift message: an object changed outside
// Terrane since the last run.
func (v *View) ResourceDrift(change *plans.ResourceInstanceChangeSrc) {
	rendered := newResourceChange(change)
	v.emit(LevelInfo, "resource_drift", fmt.Sprintf("%s: Drift detected (%s)", change.ObjectName(), rendered.Action), map[string]any{"change": rendered})
}

// Operations a change summary reports on.
const (
	OperationPlan    = "plan"
	OperationApply   = "apply"
	OperationDestroy = "destroy"
)

// ChangeSummary counts the changes of a plan or an apply.
type ChangeSummary struct {
	Add    int `json:"add"`
	Change int `json:"change"`
	Import int `json:"import"`
	Remove int `json:"remove"`
	// Forget counts objects that stop being managed without being destroyed.
	// OpenTofu always writes it, zero included (internal/command/views/json/
	// change_summary.go).
	Forget    int    `json:"forget"`
	Operation string `json:"operation"`
}

// SummarizePlan counts the planned changes of a plan.
func SummarizePlan(changes []*plans.ResourceInstanceChangeSrc, operation string) ChangeSummary {
	summary := ChangeSummary{Operation: operation}
	for _, change := range changes {
		if change.Importing != nil {
			summary.Import++
		}
		switch change.Action {
		case plans.Create:
			summary.Add++
		case plans.Update:
			summary.Change++
		case plans.Delete:
			summary.Remove++
		case plans.Forget:
			summary.Forget++
		case plans.DeleteThenCreate, plans.CreateThenDelete:
			summary.Add++
			summary.Remove++
		case plans.CreateThenForget, plans.ForgetThenCreate:
			summary.Add++
			summary.Forget++
		}
	}
	return summary
}

// ChangeSummary writes a change_summary message, worded as Terraform words
// the last line of a plan or an apply.
func (v *View) ChangeSummary(summary ChangeSummary) {
	v.emit(LevelInfo, "change_summary", summary.message(), map[string]any{"changes": summary})
}

func (s ChangeSummary) message() string {
	var b strings.Builder
	switch s.Operation {
	case OperationApply:
		b.WriteString("Apply complete! Resources: ")
		if s.Import > 0 {
			fmt.Fprintf(&b, "%d imported, ", s.Import)
		}
		fmt.Fprintf(&b, "%d added, %d changed, %d destroyed", s.Add, s.Change, s.Remove)
		if s.Forget > 0 {
			fmt.Fprintf(&b, ", %d forgotten", s.Forget)
		}
	case OperationDestroy:
		fmt.Fprintf(&b, "Destroy complete! Resources: %d destroyed", s.Remove)
	default:
		b.WriteString("Plan: ")
		if s.Import > 0 {
			fmt.Fprintf(&b, "%d to import, ", s.Import)
		}
		fmt.Fprintf(&b, "%d to add, %d to change, %d to destroy", s.Add, s.Change, s.Remove)
		if s.Forget > 0 {
			fmt.Fprintf(&b, ", %d to forget", s.Forget)
		}
	}
	b.WriteString(".")
	return b.String()
}
