package command

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitInstallsGitModule installs a module from a git repository the test
// creates, then validates a configuration that uses the module's output:
// commands load module calls through the manifest init wrote.
func TestInitInstallsGitModule(t *testing.T) {
	repo := gitModuleRepo(t, "variable \"name\" {\n  type = string\n}\n\noutput \"greeting\" {\n  value = \"hello ${var.name}\"\n}\n")
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "main.tf"), `
module "greeter" {
  source = "git::file://`+filepath.ToSlash(repo)+`?ref=main"
  name   = "world"
}

output "greeting" {
  value = module.greeter.greeting
}
`)
	t.Chdir(project)
	t.Setenv("TERRANE_CLI_CONFIG_FILE", filepath.Join(project, "no-such-terraformrc"))

	_, errOut, code := runCommand(t, "validate")
	if code == 0 || !strings.Contains(errOut, "init") {
		t.Fatalf("validate before init: exit %d, want an error telling to run init:\n%s", code, errOut)
	}
	out, errOut, code := runCommand(t, "init")
	if code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "Initializing modules...") || !strings.Contains(out, "greeter") {
		t.Errorf("init output does not report the module:\n%s", out)
	}
	out, errOut, code = runCommand(t, "validate")
	if code != 0 || !strings.Contains(out, "Success!") {
		t.Fatalf("validate after init: exit %d\n%s%s", code, out, errOut)
	}
}

// TestInitExplainsUnreachableRegistry points direct installation at a
// registry host that refuses connections: init names the provider and the
// host it could not reach, in OpenTofu's words.
func TestInitExplainsUnreachableRegistry(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "main.tf"), `
terraform {
  required_providers {
    thing = { source = "127.0.0.1:1/example/thing" }
  }
}
`)
	rc := filepath.Join(project, "terraformrc")
	writeFile(t, rc, "provider_installation {\n  direct {}\n}\n")
	t.Chdir(project)
	t.Setenv("TERRANE_CLI_CONFIG_FILE", rc)
	t.Setenv("TF_PLUGIN_CACHE_DIR", "")
	_, errOut, code := runCommand(t, "init", "-no-color")
	if code == 0 {
		t.Fatal("init succeeded without a reachable registry")
	}
	for _, want := range []string{"Failed to resolve provider packages", "127.0.0.1:1/example/thing", "could not connect to"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("diagnostic lacks %q:\n%s", want, errOut)
		}
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
	writeFile(t, filepath.Join(repo, "main.tf"), mainTF)
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
