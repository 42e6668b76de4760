package e2etest

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// tokenHeader is lifecycleHeader with an ephemeral variable.
const tokenHeader = lifecycleHeader + `
variable "secret" {
  type      = string
  ephemeral = true
  default   = "s3cret"
}
`

// TestEphemeralResourceRenewedAndClosedOnInterrupt runs an apply whose
// resource, using an ephemeral token, never finishes: the token is renewed
// at the interval its provider asks for while the run lasts, and closed
// when the run is interrupted.
func TestEphemeralResourceRenewedAndClosedOnInterrupt(t *testing.T) {
	t.Parallel()

	p := newE2EProject(t, tokenHeader+`
ephemeral "tpf_token" "lease" {
  name                = "long"
  renew_after_seconds = 1
}

resource "tpf_thing" "stuck" {
  name                = "stuck"
  fail                = "hang"
  password_wo         = ephemeral.tpf_token.lease.value
  password_wo_version = 1
}
`)
	cmd, out, errOut, exited := startCLI(t, p, "apply", "-auto-approve", "-no-color")
	waitFor(t, "apply", out, regexp.MustCompile(`tpf_thing.stuck: Creating...`))
	renewed := false
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && !renewed; time.Sleep(100 * time.Millisecond) {
		lease, open := p.objects("tpf_token")["long"]
		renewals, _ := lease.attrs["renewals"].(float64)
		renewed = open && renewals >= 2
	}
	if !renewed {
		cmd.Process.Kill()
		t.Fatalf("the open token was not renewed twice: %v\nstdout:\n%s", p.objects("tpf_token"), out.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err == nil {
			t.Errorf("the interrupted apply exited successfully")
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("apply still running after an interrupt\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}
	if leases := p.objects("tpf_token"); len(leases) != 0 {
		t.Errorf("the interrupted run left the token open: %v", leases)
	}
	assertContains(t, "apply", out.String(),
		"ephemeral.tpf_token.lease: Renewing...", "ephemeral.tpf_token.lease: Renew complete after",
		"ephemeral.tpf_token.lease: Closing...", "ephemeral.tpf_token.lease: Close complete after")
}

// TestEphemeralResourceClosedOnFailure checks that a run that fails,
// while planning or while applying, still closes what it opened, and that
// an ephemeral resource whose opening fails stops only what depends on it.
func TestEphemeralResourceClosedOnFailure(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, tokenHeader+`
ephemeral "tpf_token" "t" {
  count = 2
  name  = "failing-${count.index}"
}

resource "tpf_thing" "a" {
  name                = "a"
  fail                = "apply_error"
  password_wo         = ephemeral.tpf_token.t[0].value
  password_wo_version = 1
}
`)
	out, errOut, code := p.run("apply", "-auto-approve", "-no-color")
	if code == 0 {
		t.Fatalf("apply succeeded:\n%s", out)
	}
	assertContains(t, "apply", errOut, "Apply failed on request")
	assertContains(t, "apply", out, "ephemeral.tpf_token.t[0]: Opening...", "ephemeral.tpf_token.t[1]: Close complete after")
	if leases := p.objects("tpf_token"); len(leases) != 0 {
		t.Errorf("the failed apply left tokens open: %v", sortedNames(leases))
	}

	p.write(tokenHeader + `
ephemeral "tpf_token" "t" {
  name = "planning"
}

resource "tpf_thing" "a" {
  name                = "a"
  fail                = "plan_error"
  password_wo         = ephemeral.tpf_token.t.value
  password_wo_version = 1
}
`)
	if out, errOut, code := p.run("plan", "-no-color"); code == 0 || !strings.Contains(errOut, "Plan failed on request") {
		t.Fatalf("plan: exit %d\n%s\n%s", code, out, errOut)
	}
	if leases := p.objects("tpf_token"); len(leases) != 0 {
		t.Errorf("the failed plan left tokens open: %v", sortedNames(leases))
	}
}

// TestEphemeralProgressLines applies a configuration with an ephemeral
// resource whose configuration is known only after apply and one that
// depends on a resource being created, and checks what is reported of them,
// in OpenTofu's words: the plan opens and closes the second and says
// nothing of the first; the apply opens and closes both.
func TestEphemeralProgressLines(t *testing.T) {
	t.Parallel()
	config := lifecycleHeader + `
resource "tpf_thing" "a" {
  name = "a"
}

ephemeral "tpf_token" "dep" {
  name       = "dep"
  depends_on = [tpf_thing.a]
}

ephemeral "tpf_token" "unknown" {
  name = tpf_thing.a.id
}

resource "tpf_thing" "b" {
  name                = "b"
  password_wo         = "${ephemeral.tpf_token.dep.value}${ephemeral.tpf_token.unknown.value}"
  password_wo_version = 1
}
`
	p := newE2EProject(t, config)
	lifecycle := func(name string) []string {
		return []string{name + ": Opening...", name + ": Open complete after Ns", name + ": Closing...", name + ": Close complete after Ns"}
	}
	dep, unknown := lifecycle("ephemeral.tpf_token.dep"), lifecycle("ephemeral.tpf_token.unknown")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"plan"}, dep},
		{[]string{"apply", "-auto-approve"}, slices.Concat(dep, dep, unknown)},
	} {
		out, errOut, code := p.run(append([]string{tc.args[0], "-no-color"}, tc.args[1:]...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", tc.args[0], code, out, errOut)
		}
		if extra, missing := multisetDifference(ephemeralProgress(out), tc.want); len(extra)+len(missing) > 0 {
			t.Errorf("%s: unexpected %q; missing %q\n%s", tc.args[0], extra, missing, out)
		}
	}
}

// ephemeralProgress are the progress lines about ephemeral resources, with
// timings masked.
func ephemeralProgress(output string) []string {
	var lines []string
	for _, line := range strings.Split(output, "\n") {
		if strings.HasPrefix(line, "ephemeral.") {
			lines = append(lines, streamElapsedPattern.ReplaceAllString(line, "after Ns"))
		}
	}
	return lines
}

// streamElapsedPattern matches the time a progress line says an operation
// took.
var streamElapsedPattern = regexp.MustCompile(`after \d+s`)

// multisetDifference returns what each side has more of than the other.
func multisetDifference(a, b []string) (onlyA, onlyB []string) {
	counts := map[string]int{}
	for _, line := range a {
		counts[line]++
	}
	for _, line := range b {
		counts[line]--
	}
	for line, n := range counts {
		for ; n > 0; n-- {
			onlyA = append(onlyA, line)
		}
		for ; n < 0; n++ {
			onlyB = append(onlyB, line)
		}
	}
	slices.Sort(onlyA)
	slices.Sort(onlyB)
	return onlyA, onlyB
}
