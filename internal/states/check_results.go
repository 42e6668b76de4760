package states

// CheckResultJSON is one entry of a state v4 file's "check_results": the
// outcome of the checks one configuration object declares (object_kind
// "resource", "output", "check" or "var"), and of each of its instances.
// CheckResultsJSON holds a JSON array of them.
type CheckResultJSON struct {
	ObjectKind string            `json:"object_kind"`
	ConfigAddr string            `json:"config_addr"`
	Status     string            `json:"status"`
	Objects    []CheckObjectJSON `json:"objects"` // null when no object was reached, as OpenTofu writes it
}

// CheckObjectJSON is the outcome of the checks of one instance in a
// CheckResultJSON.
type CheckObjectJSON struct {
	ObjectAddr      string   `json:"object_addr"`
	Status          string   `json:"status"`
	FailureMessages []string `json:"failure_messages,omitempty"`
}
