package e2etest

import (
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2ELockTimeoutWaitsForAnotherApply runs two applies of the same
// resource at once: while the first is changing it, the second, given
// -lock-timeout, waits instead of leaving the resource out, plans again
// once the first has finished and applies its own change.
func TestE2ELockTimeoutWaitsForAnotherApply(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, sharedConfig)
	p.mustRun("apply", "-auto-approve")

	// The first apply holds an intent on tpf_thing.a while its update
	// hangs in the provider.
	first := startInBackground(t, p, "apply", "-auto-approve", "-no-color", "-var=suffix=-one", "-var=fail=hang")
	clitest.WaitFor(t, "first apply", first.out, regexp.MustCompile(`tpf_thing.a: Modifying\.\.\.`))

	second := startInBackground(t, p, "apply", "-auto-approve", "-no-color", "-lock-timeout=60s", "-var=suffix=-two")
	clitest.WaitFor(t, "second apply", second.out, regexp.MustCompile(`Waiting for another run \(tpf_thing\.a is being changed by another run\)`))

	// Ending the first apply releases its claim; the second plans again.
	if err := first.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = first.wait(t, "interrupted first apply", 30*time.Second)
	if err := second.wait(t, "second apply", 60*time.Second); err != nil {
		t.Fatalf("second apply failed: %v\nstdout:\n%s\nstderr:\n%s", err, second.out.String(), second.errOut.String())
	}
	clitest.AssertContains(t, "second apply", second.out.String(), "Apply complete!")
	if got := p.objects("tpf_thing")["a"].attrs["description"]; got != "a-two" {
		t.Errorf("cloud holds description %v after both applies, want the second's a-two", got)
	}
}
