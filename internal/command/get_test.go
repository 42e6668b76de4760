package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGetInstallsModules installs a module from a git repository with get
// alone, as `tofu get` does, so that validate can read it; a second get
// keeps it and get -update fetches it again.
func TestGetInstallsModules(t *testing.T) {
	repo := gitModuleRepo(t, "output \"greeting\" {\n  value = \"hello\"\n}\n")
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "main.tf"), `
module "greeter" {
  source = "git::file://`+filepath.ToSlash(repo)+`?ref=main"
}

output "greeting" {
  value = module.greeter.greeting
}
`)
	t.Chdir(project)
	t.Setenv("TERRANE_CLI_CONFIG_FILE", filepath.Join(project, "no-such-terraformrc"))
	out, errOut, code := runCommand(t, "get")
	if code != 0 || !strings.Contains(out, "Downloading git::file://") || !strings.Contains(out, "- greeter in .terrane/modules/greeter") {
		t.Fatalf("get: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code = runCommand(t, "validate"); code != 0 || !strings.Contains(out, "Success!") {
		t.Fatalf("validate after get: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code = runCommand(t, "get"); code != 0 || strings.Contains(out, "Downloading") {
		t.Errorf("a second get downloaded again: exit %d\n%s", code, out)
	}
	if out, _, code = runCommand(t, "get", "-update"); code != 0 || !strings.Contains(out, "Downloading") {
		t.Errorf("get -update kept the installed module: exit %d\n%s", code, out)
	}
}
