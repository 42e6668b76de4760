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
	if s.CurrentGeneration == "" {
		return fmt.Sprintf("%s was deleted after the plan was made; make a new plan", s.Name)
	}
	return fmt.Sprintf("%s changed after the plan was made (generation %s, now %s); make a new plan", s.Name, s.PlannedGeneration, s.CurrentGeneration)
}

// StaleRecords compares the plan's prior records with the store's current
// ones, which currentGeneration looks up (found is false for a record that
// no longer exists), and returns every record whose content changed since
// planning, in the plan's order. Only the Generation counts: a status write
// changes a record's Version but not what the plan was based on.
func (p *Plan) StaleRecords(currentGeneration func(name string) (generation string, found bool)) []StaleRecord {
	var stale []StaleRecord
	for _, record := range p.PriorRecords {
		current, found := currentGeneration(record.Name)
		if !found {
			current = ""
		}
		if current != record.Generation {
			stale = append(stale, StaleRecord{Name: record.Name, PlannedGeneration: record.Generation, CurrentGeneration: current})
		}
	}
	return stale
}
