package grpcprovider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// exitGrace is how long a failed call waits for the provider's process to
// end before deciding it did not crash: the connection breaks a moment
// before the operating system reports the exit.
const exitGrace = 2 * time.Second

// failure explains a call that got no answer: the caller gave up (hang),
// the process died (crash), or the call failed in transport. The diagnostic
// names the provider, the call and the type, and carries the end of the
// provider's stderr, where a crashing Go provider prints its panic.
func (p *Provider) failure(ctx context.Context, rpc, typeName string, err error) diags.Diagnostics {
	subject := rpc
	if typeName != "" {
		subject = fmt.Sprintf("%s for %s", rpc, typeName)
	}
	code := status.Code(err)
	if ctxErr := ctx.Err(); ctxErr != nil || code == codes.Canceled || code == codes.DeadlineExceeded {
		reason := "the operation was cancelled"
		if errors.Is(ctxErr, context.DeadlineExceeded) || code == codes.DeadlineExceeded {
			reason = "its time limit ran out"
		}
		p.cfg.Logger.Warn("provider call abandoned", "rpc", rpc, "type", typeName, "error", err)
		return diags.Diagnostics{diags.Errorf(providers.SummaryNoAnswer,
			"The provider %s did not answer %s before %s. The object it was working on may be partly changed; the next plan reads it back.",
			p.cfg.Name, subject, reason)}
	}
	if p.cfg.Process != nil && (code == codes.Unavailable || code == codes.Internal || code == codes.Unknown) && p.cfg.Process.WaitExited(exitGrace) {
		p.cfg.Logger.Error("provider crashed", "rpc", rpc, "type", typeName, "error", err)
		return diags.Diagnostics{diags.Errorf(providers.SummaryCrashed,
			"The provider %s stopped while Terrane waited for its answer to %s. This is a bug in the provider: please report it to its developers with the output below. Any change the call was making may or may not have happened; the next plan reads the object back.%s",
			p.cfg.Name, subject, tailSection(p.cfg.Process.StderrTail()))}
	}
	if code == codes.Unimplemented {
		return diags.Diagnostics{diags.Errorf("Provider does not support "+rpc,
			"The provider %s does not implement %s, which Terrane needed for %s. A newer version of the provider may support it.",
			p.cfg.Name, rpc, subject)}
	}
	detail := fmt.Sprintf("Terrane could not complete %s with the provider %s: %s.", subject, p.cfg.Name, status.Convert(err).Message())
	if p.cfg.Process != nil {
		detail += tailSection(p.cfg.Process.StderrTail())
	}
	return diags.Diagnostics{diags.Errorf(providers.SummaryCallFailed, "%s", detail)}
}

// notRunning says, before a call that may change an object is sent,
// whether the provider's process has already stopped (it crashed on an
// earlier call). Such a call is not sent: the diagnostic says nothing was
// changed, so the engine withdraws the call's intent instead of leaving an
// outcome that is not in doubt for the next run to resolve.
func (p *Provider) notRunning(rpc, typeName string) diags.Diagnostics {
	if p.cfg.Process == nil || !p.cfg.Process.WaitExited(0) {
		return nil
	}
	return diags.Diagnostics{diags.Errorf(providers.SummaryNotRunning,
		"The provider %s stopped earlier in this run, so %s for %s was not sent and nothing was changed.%s",
		p.cfg.Name, rpc, typeName, tailSection(p.cfg.Process.StderrTail()))}
}

func tailSection(tail string) string {
	tail = strings.TrimSpace(tail)
	if tail == "" {
		return ""
	}
	return "\n\nThe provider's last output:\n" + tail
}
