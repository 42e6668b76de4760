package e2etest

import (
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/clitest"
)

const countedThings = lifecycleHeader + `
resource "tpf_thing" "a" {
  count = 3
  name  = "a-${count.index}"
}
`

// TestE2ESavedPlanAppliedTwice applies one saved plan twice: the second
// apply must refuse, in OpenTofu's words, instead of creating duplicates
// and forgetting the first objects.
func TestE2ESavedPlanAppliedTwice(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, countedThings)
	p.mustRun("plan", "-out=tp")
	p.mustRun("apply", "tp")
	first := p.objects("tpf_thing")
	out, errOut, code := p.run("apply", "-no-color", "tp")
	if code != 1 {
		t.Fatalf("a saved plan applied a second time: exit %d\n%s\n%s", code, out, errOut)
	}
	clitest.AssertContains(t, "second apply of the plan", errOut, "Saved plan is stale",
		"The given plan file can no longer be applied because the state was changed by another operation after the plan was created.")
	assertSameObjects(t, first, p.objects("tpf_thing"))
}

// TestE2ESavedPlanAddressCreatedMeanwhile creates, from another run, one
// of the addresses a saved plan creates: applying the plan must refuse and
// change nothing.
func TestE2ESavedPlanAddressCreatedMeanwhile(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, countedThings)
	p.mustRun("plan", "-out=tp")
	p.mustRun("apply", "-auto-approve", "-target=tpf_thing.a[1]")
	before := p.objects("tpf_thing")
	out, errOut, code := p.run("apply", "-no-color", "tp")
	if code != 1 {
		t.Fatalf("a saved plan applied over an address created since: exit %d\n%s\n%s", code, out, errOut)
	}
	clitest.AssertContains(t, "stale plan refusal", errOut, "Saved plan is stale")
	assertSameObjects(t, before, p.objects("tpf_thing"))
}

// assertSameObjects fails unless the cloud holds the same objects (name
// and id) as before.
func assertSameObjects(t *testing.T, before, after map[string]cloudObject) {
	t.Helper()
	if len(after) != len(before) {
		t.Errorf("the cloud holds %v, want only %v", sortedNames(after), sortedNames(before))
	}
	for name, obj := range before {
		if after[name].attrs["id"] != obj.attrs["id"] {
			t.Errorf("%s is object %v now, was %v", name, after[name].attrs["id"], obj.attrs["id"])
		}
	}
}

// TestE2EStateChangedUnderRun runs a whole-workspace apply while another
// one waits at its approval prompt. Without a saved plan the waiting run
// must not speak of one: it names the addresses that changed under it and
// says that planning again is safe, and -lock-timeout plans again by
// itself. Either way no object is created twice.
func TestE2EStateChangedUnderRun(t *testing.T) {
	t.Parallel()
	t.Run("refused", func(t *testing.T) {
		t.Parallel()
		p := newE2EProject(t, countedThings)
		out, errOut, code := applyWhileAnotherWaits(t, p)
		if code != 1 {
			t.Fatalf("the waiting apply: exit %d, want 1\n%s\n%s", code, out, errOut)
		}
		if strings.Contains(errOut, "Saved plan") {
			t.Errorf("a run given no saved plan speaks of one:\n%s", errOut)
		}
		clitest.AssertContains(t, "the waiting apply's errors", errOut, "State changed since this run planned",
			"tpf_thing.a[0]", "tpf_thing.a[2]", "planning again is safe", "-lock-timeout")
		if got := len(p.objects("tpf_thing")); got != 3 {
			t.Errorf("the cloud holds %d objects, want 3", got)
		}
	})
	t.Run("lock-timeout plans again", func(t *testing.T) {
		t.Parallel()
		p := newE2EProject(t, countedThings)
		out, errOut, code := applyWhileAnotherWaits(t, p, "-lock-timeout=60s")
		if code != 0 {
			t.Fatalf("the waiting apply with -lock-timeout: exit %d, want 0\n%s\n%s", code, out, errOut)
		}
		clitest.AssertContains(t, "the waiting apply's output", out, "Waiting for another run", "planning again")
		if got := len(p.objects("tpf_thing")); got != 3 {
			t.Errorf("the cloud holds %d objects, want 3", got)
		}
	})
}

// applyWhileAnotherWaits starts an interactive apply, lets another apply
// of the same configuration run to completion while the first waits at its
// prompt, then approves the first and returns how it ended.
func applyWhileAnotherWaits(t *testing.T, p *e2eProject, extra ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := p.command(append([]string{"apply", "-no-color"}, extra...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut clitest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	clitest.WaitFor(t, "the first apply's prompt", &out, regexp.MustCompile(`Enter a value:`))
	if res := runProcesses(t, p, []string{"apply", "-auto-approve", "-no-color"}); res[0].code != 0 {
		t.Fatalf("the other apply: exit %d\n%s\n%s", res[0].code, res[0].stdout, res[0].stderr)
	}
	// Approve the first run's plan, and any plan it makes again.
	go func() {
		for range 5 {
			if _, err := io.WriteString(stdin, "yes\n"); err != nil {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the first apply did not finish\n%s\n%s", out.String(), errOut.String())
	}
	if exitErr, ok := err.(*exec.ExitError); ok {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}
