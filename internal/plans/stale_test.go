package plans

import (
	"strings"
	"testing"
)

func TestStaleRecordsNamesChangedAndDeletedRecords(t *testing.T) {
	plan := &Plan{PriorRecords: []PriorRecord{
		{Name: "null_resource.same", Generation: "g1"},
		{Name: "null_resource.changed", Generation: "g2"},
		{Name: "null_resource.deleted", Generation: "g3"},
	}}
	current := map[string]string{"null_resource.same": "g1", "null_resource.changed": "g9"}
	stale := plan.StaleRecords(func(name string) (string, bool) {
		generation, found := current[name]
		return generation, found
	})
	if len(stale) != 2 || stale[0].Name != "null_resource.changed" || stale[1].Name != "null_resource.deleted" {
		t.Fatalf("stale records %+v, want the changed and the deleted one", stale)
	}
	if msg := stale[0].Error(); !strings.Contains(msg, "generation g2, now g9") {
		t.Errorf("message %q does not say which generations differ", msg)
	}
	if msg := stale[1].Error(); !strings.Contains(msg, "was deleted since") {
		t.Errorf("message %q does not say the record is gone", msg)
	}
}

func TestStaleRecordsNamesAbsentRecordsThatExistNow(t *testing.T) {
	plan := &Plan{AbsentRecords: []string{"null_resource.still_absent", "null_resource.created"}}
	current := map[string]string{"null_resource.created": "g1"}
	stale := plan.StaleRecords(func(name string) (string, bool) {
		generation, found := current[name]
		return generation, found
	})
	if len(stale) != 1 || stale[0].Name != "null_resource.created" {
		t.Fatalf("stale records %+v, want only the record created since", stale)
	}
	if msg := stale[0].Error(); !strings.Contains(msg, "did not exist when the plan was made") {
		t.Errorf("message %q does not say the record appeared", msg)
	}
}
