package plans

import "fmt"

// StaleRecord is a prior record that changed between planning and applying.
type StaleRecord struct {
	Name string
	// PlannedGeneration is the Generation the plan read; CurrentGeneration
	// the one the store holds now, empty when the record is gone.
	PlannedGeneration, CurrentGeneration string
}

func (s StaleRecord) Error() string {
	return fmt.Sprintf("%s: %s; make a new plan", s.Name, s.Reason())
}

// Reason says how the record differs from what the plan read.
func (s StaleRecord) Reason() string {
	switch {
	case s.PlannedGeneration == "":
		return fmt.Sprintf("it did not exist when the plan was made and exists now (generation %s), so another run created it, or this plan was applied already", s.CurrentGeneration)
	case s.CurrentGeneration == "":
		return fmt.Sprintf("it existed when the plan was made (generation %s) and was deleted since", s.PlannedGeneration)
	}
	return fmt.Sprintf("it changed after the plan was made (generation %s, now %s)", s.PlannedGeneration, s.CurrentGeneration)
}

// OutputRecordKind is the kind of a root output's record among a plan's
// prior records.
const OutputRecordKind = "Output"

// StaleRecords compares the plan's prior records with the store's current
// ones, which currentGeneration looks up (found is false for a record that
// does not exist), and returns every record whose content changed since
// planning, in the plan's order, then every record the plan found absent
// that exists now. Only the Generation counts: a status write changes a
// record's Version but not what the plan was based on.
func (p *Plan) StaleRecords(currentGeneration func(name string) (generation string, found bool)) []StaleRecord {
	var stale []StaleRecord
	for _, record := range p.PriorRecords {
		if record.Kind == OutputRecordKind {
			// Carried for the plan's prior state alone: nothing the plan
			// does depends on a root output's recorded value.
			continue
		}
		current, found := currentGeneration(record.Name)
		if !found {
			current = ""
		}
		if current != record.Generation {
			stale = append(stale, StaleRecord{Name: record.Name, PlannedGeneration: record.Generation, CurrentGeneration: current})
		}
	}
	for _, name := range p.AbsentRecords {
		if current, found := currentGeneration(name); found {
			stale = append(stale, StaleRecord{Name: name, CurrentGeneration: current})
		}
	}
	return stale
}
