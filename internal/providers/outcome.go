package providers

import "github.com/terrane/terrane/internal/diags"

// The summaries of the diagnostics an adapter gives for a call that got no
// answer from its provider. Whether such a call changed anything is
// unknown, so the engine keeps its intent open for the next run to resolve
// (docs/architecture.md, "Nothing is silently forgotten"). Every other error is the
// provider's own answer that the call failed.
const (
	// SummaryCrashed: the provider's process stopped during the call.
	SummaryCrashed = "Provider crashed"
	// SummaryNoAnswer: the call was abandoned (cancelled, timed out).
	SummaryNoAnswer = "Provider did not answer"
	// SummaryCallFailed: the call failed in transport.
	SummaryCallFailed = "Provider call failed"
)

// SummaryNotRunning is the summary of a call that was never sent because
// the provider's process had already stopped: nothing was changed, so an
// intent opened for it is withdrawn.
const SummaryNotRunning = "Provider is not running"

// OutcomeUnknown reports whether ds say a call got no answer, so that
// whether it changed anything is unknown. An error the provider answered
// with is a definite failure: by the protocol a failed create answers with
// no new object, so nothing was created that Terrane must remember.
func OutcomeUnknown(ds diags.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity != diags.Error {
			continue
		}
		switch d.Summary {
		case SummaryCrashed, SummaryNoAnswer, SummaryCallFailed:
			return true
		}
	}
	return false
}

// Stopped reports whether ds say the provider's process is gone: it
// crashed during the call or was not running when the call was due. No
// later call to the same process can succeed.
func Stopped(ds diags.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity == diags.Error && (d.Summary == SummaryCrashed || d.Summary == SummaryNotRunning) {
			return true
		}
	}
	return false
}
