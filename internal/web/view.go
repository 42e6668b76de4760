package web

import (
	"time"

	"github.com/terrane/terrane/internal/resourceservice/records/recordview"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// recordJSON is one record as the page receives it. Data is the record's
// content with sensitive values replaced; a record whose data the server
// cannot read (encrypted at rest) shows only its name and status.
type recordJSON struct {
	Op         string                `json:"op"`
	Kind       string                `json:"kind"`
	Project    string                `json:"project"`
	Workspace  string                `json:"workspace"`
	Name       string                `json:"name"`
	Uid        string                `json:"uid,omitempty"`
	Generation string                `json:"generation,omitempty"`
	ChangedAt  *time.Time            `json:"changed_at,omitempty"`
	Version    string                `json:"version,omitempty"`
	Status     map[string]statusJSON `json:"status,omitempty"`
	Data       any                   `json:"data,omitempty"`
}

type statusJSON struct {
	ObservedGeneration string          `json:"observed_generation"`
	UpdatedAt          *time.Time      `json:"updated_at,omitempty"`
	Conditions         []conditionJSON `json:"conditions"`
}

type conditionJSON struct {
	Type    string `json:"type"`
	State   string `json:"state"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

func newRecordJSON(kind store.EventKind, res *pbresource.Resource) recordJSON {
	id := res.GetId()
	view := recordJSON{Op: "upsert", Kind: id.GetType().GetKind(), Project: id.GetTenancy().GetPartition(),
		Workspace: id.GetTenancy().GetNamespace(), Name: id.GetName(), Uid: id.GetUid(),
		Generation: res.GetGeneration(), Version: res.GetVersion(), ChangedAt: generationTime(res.GetGeneration())}
	if kind == store.EventDelete {
		view.Op = "delete"
		return view
	}
	for key, st := range res.GetStatus() {
		if view.Status == nil {
			view.Status = map[string]statusJSON{}
		}
		sj := statusJSON{ObservedGeneration: st.GetObservedGeneration(), Conditions: []conditionJSON{}}
		if st.GetUpdatedAt() != nil {
			at := st.GetUpdatedAt().AsTime()
			sj.UpdatedAt = &at
		}
		for _, c := range st.GetConditions() {
			sj.Conditions = append(sj.Conditions, conditionJSON{Type: c.GetType(), State: stateName(c.GetState()), Reason: c.GetReason(), Message: c.GetMessage()})
		}
		view.Status[key] = sj
	}
	view.Data = recordview.Data(res)
	return view
}

func stateName(s pbresource.Condition_State) string {
	switch s {
	case pbresource.Condition_STATE_TRUE:
		return "TRUE"
	case pbresource.Condition_STATE_FALSE:
		return "FALSE"
	}
	return "UNKNOWN"
}
