package e2etest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// crashingCountConfig has count tpf_thing instances, the one at crashIndex
// crashing the provider when it is created.
func crashingCountConfig(count, crashIndex int) string {
	return lifecycleHeader + fmt.Sprintf(`
resource "tpf_thing" "n" {
  count = %d
  name  = "n-${count.index}"
  fail  = count.index == %d ? "crash" : null
}
`, count, crashIndex)
}

// TestE2EProviderCrashUncertainBound kills the provider process with a
// create in flight. Only the calls in flight when it died may have
// happened: every other instance's create either finished and is recorded
// or was never started, so at most -parallelism creates are left for the
// user to resolve, and every object in the cloud is recorded.
func TestE2EProviderCrashUncertainBound(t *testing.T) {
	t.Parallel()
	for _, parallelism := range []int{1, 4} {
		t.Run(fmt.Sprintf("parallelism %d", parallelism), func(t *testing.T) {
			t.Parallel()
			p := newE2EProject(t, crashingCountConfig(40, 7))
			out, errOut, code := p.run("apply", "-auto-approve", "-no-color", fmt.Sprintf("-parallelism=%d", parallelism))
			if code != 1 {
				t.Fatalf("apply with a crashing provider: exit %d, want 1\n%s\n%s", code, out, errOut)
			}
			clitest.AssertContains(t, "apply errors", errOut, "Provider crashed", "tpf_thing.n[7]")
			// The crash is fixed; the next plan reports what may have
			// happened and leaves it alone.
			p.write(crashingCountConfig(40, -1))
			_, planErr, _ := p.run("plan", "-no-color")
			uncertain := strings.Count(planErr, "Error: Unfinished create")
			if uncertain < 1 || uncertain > parallelism {
				t.Errorf("%d creates reported unfinished after the provider crashed, want 1 to %d:\n%s", uncertain, parallelism, planErr)
			}
			// The advice names commands that exist, quoted for a shell.
			clitest.AssertContains(t, "plan after the crash", planErr, "tpf_thing.n[7]", `terrane state rm 'tpf_thing.n[7]'`, `terrane import 'tpf_thing.n[7]' ID`)
			recorded := map[string]bool{}
			for _, addr := range p.recordedInstances() {
				recorded[addr] = true
			}
			for name := range p.objects("tpf_thing") {
				addr := "tpf_thing.n[" + strings.TrimPrefix(name, "n-") + "]"
				if !recorded[addr] {
					t.Errorf("the cloud has %s, which no record holds", name)
				}
			}
		})
	}
}
