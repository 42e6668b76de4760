package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2EPulumiExample runs the README's worked example, examples/pulumi,
// through init, apply, a plan with no changes and destroy, so the example
// users copy keeps working.
func TestE2EPulumiExample(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "pulumi", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	p := newPulumiProject(t, string(src))
	p.setenv("TF_VAR_cloud_dir", p.cloud)
	out := p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply", out, "Apply complete!")
	p.expectNoChanges("plan after apply")
	out = p.mustRun("destroy", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "destroy", out, "Destroy complete!")
	entries, _ := filepath.Glob(filepath.Join(p.cloud, "*", "*.json"))
	if len(entries) != 0 {
		t.Errorf("destroy left objects in the cloud: %s", strings.Join(entries, ", "))
	}
}
