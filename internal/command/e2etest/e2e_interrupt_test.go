package e2etest

import (
	"os"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// testInterrupt interrupts an apply whose last provider call never
// returns: the first Ctrl-C says to wait and stops the run, a second gives
// up at once, and what finished before is recorded.
func testInterrupt(t *testing.T) {
	p := newE2EProject(t, lifecycleHeader+`
resource "tpf_thing" "done" {
  name = "done"
}

resource "tpf_thing" "stuck" {
  name       = "stuck"
  fail       = "hang"
  depends_on = [tpf_thing.done]
}
`)
	cmd, out, errOut, exited := startCLI(t, p, "apply", "-auto-approve", "-no-color")
	clitest.WaitFor(t, "apply", out, regexp.MustCompile(`tpf_thing.stuck: Creating...`))

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	clitest.WaitFor(t, "interrupted apply", errOut, regexp.MustCompile(`Interrupt received.\nPlease wait for Terrane to exit or data loss may occur.`))
	var err error
	select {
	case err = <-exited:
		// The engine cancelled the stuck call and stopped by itself.
	case <-time.After(3 * time.Second):
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		select {
		case err = <-exited:
			clitest.AssertContains(t, "twice interrupted apply", errOut.String(), "Two interrupts received. Exiting immediately.")
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("apply still running after a second interrupt\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
		}
	}
	if err == nil {
		t.Errorf("interrupted apply exited successfully")
	}
	if !slices.Contains(p.recordedInstances(), "tpf_thing.done") {
		t.Errorf("the object created before the interrupt is not recorded: %v", p.recordedInstances())
	}
}
