package e2etest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
)

// The progress hooks the commands use hear about ephemeral resources.
var (
	_ engine.EphemeralHook = (*ui.ProgressHook)(nil)
	_ engine.EphemeralHook = (*jsonview.Hook)(nil)
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
	clitest.WaitFor(t, "apply", out, regexp.MustCompile(`tpf_thing.stuck: Creating...`))
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
	clitest.AssertContains(t, "apply", out.String(),
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
	clitest.AssertContains(t, "apply", errOut, "Apply failed on request")
	clitest.AssertContains(t, "apply", out, "ephemeral.tpf_token.t[0]: Opening...", "ephemeral.tpf_token.t[1]: Close complete after")
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

// TestEphemeralResourceOpenWhileItsProviderWorks configures a provider
// with an ephemeral resource's value: the resource stays open until every
// object that provider works on is done, as a credential it hands out
// must, and only then is closed (the corpus case
// lifecycle/ephemeral_open_while_provider_works compares this with OpenTofu).
func TestEphemeralResourceOpenWhileItsProviderWorks(t *testing.T) {
	t.Parallel()
	elsewhere := t.TempDir()
	config := lifecycleHeader + `
ephemeral "tpf_token" "credential" {
  name = "credential"
}

provider "tpf" {
  alias    = "with_credential"
  root_dir = startswith(ephemeral.tpf_token.credential.value, "token-credential-") ? "` + elsewhere + `" : "/nonexistent"
}

resource "tpf_thing" "first" {
  provider = tpf.with_credential
  name     = "first"
}

resource "tpf_thing" "second" {
  provider   = tpf.with_credential
  name       = "second"
  depends_on = [tpf_thing.first]
}
`
	closedLast := func(who, output string) {
		t.Helper()
		created := strings.Index(output, "tpf_thing.second: Creation complete")
		closing := strings.LastIndex(output, "ephemeral.tpf_token.credential: Closing...")
		if created < 0 || closing < created {
			t.Errorf("%s closed the credential before the provider using it was done:\n%s", who, output)
		}
	}
	p := newE2EProject(t, config)
	closedLast("terrane", p.mustRun("apply", "-auto-approve", "-no-color"))
	if matches, _ := filepath.Glob(filepath.Join(elsewhere, "tpf_thing", "*.json")); len(matches) != 2 {
		t.Errorf("the provider configured from the ephemeral value made %d objects in its root", len(matches))
	}
	if leases := p.objects("tpf_token"); len(leases) != 0 {
		t.Errorf("tokens left open: %v", sortedNames(leases))
	}
}
