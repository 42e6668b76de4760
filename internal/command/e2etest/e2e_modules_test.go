package e2etest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestInitInstallsGitModule installs a module from a git repository the test
// creates, then validates a configuration that uses the module's output:
// commands load module calls through the manifest init wrote.
func TestInitInstallsGitModule(t *testing.T) {
	t.Parallel()
	repo := gitModuleRepo(t, "variable \"name\" {\n  type = string\n}\n\noutput \"greeting\" {\n  value = \"hello ${var.name}\"\n}\n")
	p := newBareProject(t)
	p.writeFile("main.tf", `
module "greeter" {
  source = "git::file://`+filepath.ToSlash(repo)+`?ref=main"
  name   = "world"
}

output "greeting" {
  value = module.greeter.greeting
}
`)

	_, errOut, code := p.run("validate")
	if code == 0 || !strings.Contains(errOut, "init") {
		t.Fatalf("validate before init: exit %d, want an error telling to run init:\n%s", code, errOut)
	}
	out, errOut, code := p.run("init")
	if code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "Initializing modules...") || !strings.Contains(out, "greeter") {
		t.Errorf("init output does not report the module:\n%s", out)
	}
	out, errOut, code = p.run("validate")
	if code != 0 || !strings.Contains(out, "Success!") {
		t.Fatalf("validate after init: exit %d\n%s%s", code, out, errOut)
	}
}

// gitModuleRepo makes a git repository holding a module whose main.tf is
// mainTF, committed on branch main, and returns its directory. It skips
// the test when git is not installed.
func gitModuleRepo(t *testing.T, mainTF string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	clitest.WriteFile(t, filepath.Join(repo, "main.tf"), mainTF)
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.email=t@example.com", "-c", "user.name=t", "add", "."},
		{"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "module"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return repo
}

// TestGetInstallsModules installs a module from a git repository with get
// alone, as `tofu get` does, so that validate can read it; a second get
// keeps it and get -update fetches it again.
func TestGetInstallsModules(t *testing.T) {
	t.Parallel()
	repo := gitModuleRepo(t, "output \"greeting\" {\n  value = \"hello\"\n}\n")
	p := newBareProject(t)
	p.writeFile("main.tf", `
module "greeter" {
  source = "git::file://`+filepath.ToSlash(repo)+`?ref=main"
}

output "greeting" {
  value = module.greeter.greeting
}
`)
	out, errOut, code := p.run("get")
	if code != 0 || !strings.Contains(out, "Downloading git::file://") || !strings.Contains(out, "- greeter in .terrane/modules/greeter") {
		t.Fatalf("get: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code = p.run("validate"); code != 0 || !strings.Contains(out, "Success!") {
		t.Fatalf("validate after get: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code = p.run("get"); code != 0 || strings.Contains(out, "Downloading") {
		t.Errorf("a second get downloaded again: exit %d\n%s", code, out)
	}
	if out, _, code = p.run("get", "-update"); code != 0 || !strings.Contains(out, "Downloading") {
		t.Errorf("get -update kept the installed module: exit %d\n%s", code, out)
	}
}
