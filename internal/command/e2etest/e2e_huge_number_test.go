package e2etest

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2EHugeNumbersRefused gives Terrane numbers too large to write out —
// in a configuration, a -var, a state file to push — each of which made a
// run spend minutes and megabytes printing its decimal digits. Each is
// refused at once with a diagnostic saying where it is.
func TestE2EHugeNumbersRefused(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, lifecycleHeader)
	p.write(lifecycleHeader + "output \"literal\" {\n  value = 1e9999999\n}\n")
	start := time.Now()
	_, errOut, code := p.run("plan", "-no-color")
	if code != 1 {
		t.Fatalf("plan with a huge literal: exit %d, want 1", code)
	}
	clitest.AssertContains(t, "plan with a huge literal", errOut, "Number too large", "main.tf line")

	p.write(lifecycleHeader + "variable \"n\" {\n  type = number\n}\noutput \"n\" {\n  value = var.n\n}\n")
	_, errOut, code = p.run("plan", "-no-color", "-var", "n=-1e88888888")
	if code != 1 {
		t.Fatalf("plan with a huge -var: exit %d, want 1", code)
	}
	clitest.AssertContains(t, "plan with a huge -var", errOut, "Number too large", "var.n")

	clitest.WriteFile(t, filepath.Join(p.dir, "huge.tfstate"), `{"version": 4, "terraform_version": "1.9.0", "serial": 1, "lineage": "x",
  "outputs": {"n": {"value": 1e77777777, "type": "number"}}, "resources": []}`)
	_, errOut, code = p.run("state", "push", "huge.tfstate")
	if code != 1 || !strings.Contains(errOut, "number Terrane cannot keep") {
		t.Fatalf("state push of a huge number: exit %d\n%s", code, errOut)
	}
	if elapsed := time.Since(start); elapsed > time.Minute {
		t.Errorf("refusing three numbers took %s", elapsed)
	}
}
