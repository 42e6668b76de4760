package moduletest

// Status is the outcome of a run, a file or the whole suite. Later
// statuses are worse; merging keeps the worst.
type Status int

const (
	Pending Status = iota
	Skip
	Pass
	Fail
	Error
)

func (s Status) String() string {
	switch s {
	case Skip:
		return "Skip"
	case Pass:
		return "Pass"
	case Fail:
		return "Fail"
	case Error:
		return "Error"
	}
	return "Pending"
}

// Merge returns the worse of s and other.
func (s Status) Merge(other Status) Status {
	if other > s {
		return other
	}
	return s
}
