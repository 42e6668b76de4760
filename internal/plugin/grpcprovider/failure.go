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
		return diags.Diagnostics{diags.Errorf("Provider did not answer",
			"The provider %s did not answer %s before %s. The object it was working on may be partly changed; the next plan reads it back.",
			p.cfg.Name, subject, reason)}
	}
	if p.cfg.Process != nil && (code == codes.Unavailable || code == codes.Internal || code == codes.Unknown) && p.cfg.Process.WaitExited(exitGrace) {
		p.cfg.Logger.Error("provider crashed", "rpc", rpc, "type", typeName, "error", err)
		return diags.Diagnostics{diags.Errorf("Provider crashed",
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
	return diags.Diagnostics{diags.Errorf("Provider call failed", "%s", detail)}
}

func tailSection(tail string) string {
	tail = strings.TrimSpace(tail)
	if tail == "" {
		return ""
	}
	return "\n\nThe provider's last output:\n" + tail
}
