package command

import (
	"strings"
	"testing"
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
	p := newStateProject(t)
	writeFile(t, "main.tf", workspaceConfig)
	p.mustRun("init", "-no-color")
	p.mustRun("apply", "-auto-approve", "-no-color")

	out := p.mustRun("workspace", "new", "staging")
	assertContains(t, "new", out, `Created and switched to workspace "staging"`)
	if got := strings.TrimSpace(p.mustRun("workspace", "show")); got != "staging" {
		t.Errorf("workspace show = %q", got)
	}
	if got := p.list(); len(got) != 1 || got[0] != "" {
		t.Errorf("new workspace is not empty: %q", got)
	}
	p.mustRun("apply", "-auto-approve", "-no-color")
	if got := strings.TrimSpace(p.mustRun("output", "-raw", "workspace")); got != "staging" {
		t.Errorf("terraform.workspace in staging = %q", got)
	}
	if got := p.mustRun("workspace", "list"); got != "  default\n* staging\n\n" {
		t.Errorf("workspace list =\n%s", got)
	}

	assertContains(t, "new existing", p.mustFail("workspace", "new", "staging"), "already exists")
	assertContains(t, "delete selected", p.mustFail("workspace", "delete", "staging"), "Cannot delete the selected workspace")
	assertContains(t, "select missing", p.mustFail("workspace", "select", "prod"), "Workspace doesn't exist", "workspace new prod")
	assertContains(t, "bad name", p.mustFail("workspace", "new", "no/slash"), "not a valid workspace name")

	out = p.mustRun("workspace", "select", "default")
	assertContains(t, "select", out, `Switched to workspace "default"`)
	if got := strings.TrimSpace(p.mustRun("output", "-raw", "workspace")); got != "default" {
		t.Errorf("terraform.workspace in default = %q", got)
	}

	errOut := p.mustFail("workspace", "delete", "staging")
	assertContains(t, "delete non-empty", errOut, "Workspace is not empty", "terraform_data.named", "-force")
	p.mustRun("workspace", "delete", "-force", "staging")
	if got := p.mustRun("workspace", "list"); got != "* default\n\n" {
		t.Errorf("workspace list after delete =\n%s", got)
	}
	assertContains(t, "delete missing", p.mustFail("workspace", "delete", "staging"), "Workspace doesn't exist")
	assertContains(t, "delete default", p.mustFail("workspace", "delete", "default"), "Cannot delete the default workspace")

	// A re-created workspace starts empty: the forced delete forgot its
	// records rather than leaving them behind.
	p.mustRun("workspace", "select", "-or-create", "staging")
	if got := p.list(); len(got) != 1 || got[0] != "" {
		t.Errorf("re-created workspace has records: %q", got)
	}
}

func TestWorkspaceDeleteEmptyWorkspace(t *testing.T) {
	p := newStateProject(t)
	p.mustRun("workspace", "new", "scratch")
	p.mustRun("workspace", "select", "default")
	assertContains(t, "delete", p.mustRun("workspace", "delete", "scratch"), `Deleted workspace "scratch"`)
	assertContains(t, "args", p.mustFail("workspace", "list", "extra"), "takes no arguments")
}
