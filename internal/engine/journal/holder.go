package journal

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/terrane/terrane/internal/states"
)

// DefaultClaimTTL is how long an intent of another run is respected when
// nothing better tells whether that run is alive. Provider calls can
// legitimately take long (a database cluster takes most of an hour to
// create), so it is generous; a user who knows the run is gone can lower it.
const DefaultClaimTTL = 2 * time.Hour

// Holder describes this process as intents record it: "HOST:PID".
func Holder() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	return fmt.Sprintf("%s:%d", host, os.Getpid())
}

// ReleasedHolder is the holder `terrane force-unlock` records in the open
// intents of a run the user declares stopped. Such an intent claims nothing
// any more: the next plan resolves it as it resolves any interrupted run's
// (reading the object back, or reporting a create whose outcome is
// unknown).
const ReleasedHolder = "released by force-unlock"

// ClaimRule decides whether an open intent belongs to a run that is still
// alive, whose claim on the address must be respected.
//
// The rule, in order:
//  1. An intent of this run (RunID equal to OwnRunID) is this run's own and
//     is never a claim against it.
//  2. An intent whose holder is a process on this host is live exactly while
//     that process exists and the intent is younger than TTL (the age bound
//     protects against a reused process id).
//  3. An intent held on another host, or with no holder recorded, is live
//     while it is younger than TTL: the host cannot be asked.
//  4. An intent force-unlock released (ReleasedHolder) is never live.
type ClaimRule struct {
	OwnRunID string
	// TTL bounds a claim's age; 0 means DefaultClaimTTL.
	TTL time.Duration
	// Now is the current time; nil means time.Now.
	Now func() time.Time
}

// HeldByLiveRun reports whether intent is a live claim by another run.
func (rule ClaimRule) HeldByLiveRun(intent *states.Intent) bool {
	if intent == nil || (rule.OwnRunID != "" && intent.RunID == rule.OwnRunID) || intent.Holder == ReleasedHolder {
		return false
	}
	ttl := rule.TTL
	if ttl <= 0 {
		ttl = DefaultClaimTTL
	}
	now := time.Now()
	if rule.Now != nil {
		now = rule.Now()
	}
	if intent.StartedAt.IsZero() || now.Sub(intent.StartedAt) >= ttl {
		return false
	}
	host, pid, ok := parseHolder(intent.Holder)
	if !ok {
		return true
	}
	if thisHost, err := os.Hostname(); err != nil || host != thisHost {
		return true
	}
	return processExists(pid)
}

// RunningHere reports whether holder names a process of this host that
// still exists: a run that is certainly alive.
func RunningHere(holder string) bool {
	host, pid, ok := parseHolder(holder)
	if !ok {
		return false
	}
	thisHost, err := os.Hostname()
	return err == nil && host == thisHost && processExists(pid)
}

// parseHolder reads "HOST:PID", and also "HOST pid PID", the form some
// writers of intents use.
func parseHolder(holder string) (host string, pid int, ok bool) {
	host, pidText, found := strings.Cut(holder, " pid ")
	if !found {
		sep := strings.LastIndexByte(holder, ':')
		if sep <= 0 {
			return "", 0, false
		}
		host, pidText = holder[:sep], holder[sep+1:]
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 || host == "" {
		return "", 0, false
	}
	return host, pid, true
}
