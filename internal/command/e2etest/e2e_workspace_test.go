package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

const workspaceConfig = `
resource "terraform_data" "named" {
  input = "in-${terraform.workspace}"
}

output "workspace" {
  value = terraform.workspace
}
`

// TestWorkspaceLifecycle keeps one configuration's state in two
// workspaces: each apply sees its own workspace's name and records, and a
// workspace holding resources is deleted only when forced.
func TestWorkspaceLifecycle(t *testing.T) {
	t.Parallel()
	testWorkspaceLifecycle(t)
}

// testWorkspaceLifecycle is TestWorkspaceLifecycle in a project whose environment has env too;
// it returns the project.
func testWorkspaceLifecycle(t *testing.T, env ...string) *e2eProject {
	p := newStateProject(t, env...)
	p.writeFile("main.tf", workspaceConfig)
	p.mustRun("init", "-no-color")
	p.mustRun("apply", "-auto-approve", "-no-color")

	out := p.mustRun("workspace", "new", "staging")
	clitest.AssertContains(t, "new", out, `Created and switched to workspace "staging"`)
	if got := strings.TrimSpace(p.mustRun("workspace", "show")); got != "staging" {
		t.Errorf("workspace show = %q", got)
	}
	// As in OpenTofu, a new workspace has no state until something is
	// written to it.
	clitest.AssertContains(t, "list new", p.mustFail("state", "list"), "No state file was found")
	p.mustRun("apply", "-auto-approve", "-no-color")
	if got := strings.TrimSpace(p.mustRun("output", "-raw", "workspace")); got != "staging" {
		t.Errorf("terraform.workspace in staging = %q", got)
	}
	if got := p.mustRun("workspace", "list"); got != "  default\n* staging\n\n" {
		t.Errorf("workspace list =\n%s", got)
	}

	clitest.AssertContains(t, "new existing", p.mustFail("workspace", "new", "staging"), "already exists")
	clitest.AssertContains(t, "delete selected", p.mustFail("workspace", "delete", "staging"), `Workspace "staging" is your active workspace`)
	clitest.AssertContains(t, "select missing", p.mustFail("workspace", "select", "prod"), `Workspace "prod" doesn't exist`, "-or-create")
	clitest.AssertContains(t, "bad name", p.mustFail("workspace", "new", "no/slash"), `The workspace name "no/slash" is not allowed`)

	out = p.mustRun("workspace", "select", "default")
	clitest.AssertContains(t, "select", out, `Switched to workspace "default"`)
	if got := strings.TrimSpace(p.mustRun("output", "-raw", "workspace")); got != "default" {
		t.Errorf("terraform.workspace in default = %q", got)
	}

	errOut := p.mustFail("workspace", "delete", "staging")
	clitest.AssertContains(t, "delete non-empty", errOut, "Workspace is not empty", "terraform_data.named", "-force")
	p.mustRun("workspace", "delete", "-force", "staging")
	if got := p.mustRun("workspace", "list"); got != "* default\n\n" {
		t.Errorf("workspace list after delete =\n%s", got)
	}
	clitest.AssertContains(t, "delete missing", p.mustFail("workspace", "delete", "staging"), `Workspace "staging" doesn't exist`)
	clitest.AssertContains(t, "delete default", p.mustFail("workspace", "delete", "default"), `Workspace "default" is your active workspace`)

	// A re-created workspace starts empty: the forced delete forgot its
	// records rather than leaving them behind.
	p.mustRun("workspace", "select", "-or-create", "staging")
	clitest.AssertContains(t, "list re-created", p.mustFail("state", "list"), "No state file was found")
	return p
}

func TestWorkspaceDeleteEmptyWorkspace(t *testing.T) {
	t.Parallel()
	p := newStateProject(t)
	p.mustRun("workspace", "new", "scratch")
	p.mustRun("workspace", "select", "default")
	clitest.AssertContains(t, "delete", p.mustRun("workspace", "delete", "scratch"), `Deleted workspace "scratch"`)
	clitest.AssertContains(t, "args", p.mustFail("workspace", "list", "extra"), "Too many command line arguments")
}
