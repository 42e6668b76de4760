package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2EPulumiDeleteBeforeReplaceOverridesCreateBeforeDestroy renames a
// tpulumi_thing under create_before_destroy. tpulumi's Diff asks for
// deleteBeforeReplace on a rename (names are unique in its cloud), so the
// replacement must delete the old object first, as Pulumi would.
func TestE2EPulumiDeleteBeforeReplaceOverridesCreateBeforeDestroy(t *testing.T) {
	t.Parallel()
	config := func(name string) string {
		return tpulumiOnly + `
resource "tpulumi_thing" "unique" {
  name    = "` + name + `"
  nonce   = "n-unique"
  content = "hello"

  lifecycle {
    create_before_destroy = true
  }
}
`
	}
	p := newPulumiProject(t, config("first"))
	p.mustRun("apply", "-auto-approve", "-no-color")

	p.write(config("second"))
	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan of a rename", out, "-/+ resource \"tpulumi_thing\" \"unique\"",
		"tpulumi_thing.unique must be replaced", "forces replacement", "Plan: 1 to add, 0 to change, 1 to destroy.")
	if strings.Contains(out, "+/-") {
		t.Errorf("the rename was planned create-before-destroy despite the provider's deleteBeforeReplace:\n%s", out)
	}
	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply of a rename", out, "Resources: 1 added, 0 changed, 1 destroyed.")
	if got := strings.Join(sortedNames(p.objects("tpulumi_thing")), " "); got != "second" {
		t.Errorf("Pulumi cloud after the rename holds %q, want only \"second\"", got)
	}
	p.expectNoChanges("plan after the rename")
}
