package reconcile

import (
	"sync"
	"time"
)

// Report is what the reconciler knows of a workspace: its registration and
// its latest run, including runs whose results could not be written.
type Report struct {
	Name, Project, Workspace, Dir string
	AutoApply                     string
	Interval                      time.Duration

	RunID    string
	Running  bool
	Started  time.Time
	Duration time.Duration
	Tally    Tally
	// Failure is set when the latest run failed as a whole.
	Failure *Outcome
	// AutoApplied is the auto-apply outcome of the latest run that tried.
	AutoApplied *Outcome
	// Error is a problem recording the run (the store did not answer).
	Error string
}

// Event kinds.
const (
	EventRunStarted        = "run_started"
	EventInstanceRefreshed = "instance_refreshed"
	EventApplyStarted      = "apply_started"
	EventRunFinished       = "run_finished"
	// EventMissed tells a subscriber that events were dropped because it
	// did not keep up.
	EventMissed = "missed"
)

// Event is one step of a reconciler run.
type Event struct {
	Kind string
	// Name is the workspace's registration; Project and Workspace its
	// records' tenancy.
	Name, Project, Workspace string
	RunID                    string
	// Instance and Outcome are set for EventInstanceRefreshed.
	Instance string
	Outcome  Outcome
	// Report is set for EventRunFinished.
	Report *Report
}

// subscriberBuffer is how many events a subscriber may fall behind.
const subscriberBuffer = 1024

type subscriber struct {
	ch     chan Event
	missed bool
}

// broadcaster hands events to every subscriber without ever waiting for
// one: a run must not stall because a browser is slow.
type broadcaster struct {
	mu   sync.Mutex
	subs map[*subscriber]bool
}

func newBroadcaster() *broadcaster { return &broadcaster{subs: map[*subscriber]bool{}} }

func (b *broadcaster) subscribe() (<-chan Event, func()) {
	s := &subscriber{ch: make(chan Event, subscriberBuffer)}
	b.mu.Lock()
	b.subs[s] = true
	b.mu.Unlock()
	var once sync.Once
	return s.ch, func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, s)
			b.mu.Unlock()
		})
	}
}

func (b *broadcaster) publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		if s.missed {
			select {
			case s.ch <- Event{Kind: EventMissed}:
				s.missed = false
			default:
				continue
			}
		}
		select {
		case s.ch <- e:
		default:
			s.missed = true
		}
	}
}
