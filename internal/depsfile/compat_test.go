package depsfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// terraformInit runs the real terraform init in dir against a filesystem
// mirror and returns the lock file it wrote. It skips the test when
// terraform is not installed.
func terraformInit(t *testing.T, dir, mirrorDir string) []byte {
	t.Helper()
	terraform, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not installed")
	}
	rc := filepath.Join(t.TempDir(), "terraformrc")
	writeTestFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirrorDir+"\"\n  }\n}\n")
	cmd := exec.Command(terraform, "init", "-input=false", "-no-color")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_PLUGIN_CACHE_DIR=", "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform init: %v\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLockFileMatchesTerraform writes the locks terraform init writes for a
// configuration whose modules constrain the test providers in several
// ways, and expects the same bytes; and reads terraform's file back
// unchanged.
func TestLockFileMatchesTerraform(t *testing.T) {
	mirror := providertest.Build(t)
	// The constraints each provider gets, from the root module and a child.
	constraints := map[string][2]string{
		"tpf":   {"< 1, >= 0.1", "~> 0.1"},
		"tpf5":  {"0.1.0", ""},
		"tpsdk": {"~> 0.1.0, != 0.0.9", ">= 0.0.1"},
		"tpraw": {"", ""},
	}
	dir := t.TempDir()
	root, child := "terraform {\n  required_providers {\n", "terraform {\n  required_providers {\n"
	requirement := func(typeName, version string) string {
		line := "    " + typeName + " = { source = \"" + mirror.Source(typeName) + "\""
		if version != "" {
			line += ", version = \"" + version + "\""
		}
		return line + " }\n"
	}
	for typeName, pair := range constraints {
		root += requirement(typeName, pair[0])
		child += requirement(typeName, pair[1])
	}
	writeTestFile(t, filepath.Join(dir, "main.tf"), root+"  }\n}\n\nmodule \"child\" {\n  source = \"./child\"\n}\n")
	writeTestFile(t, filepath.Join(dir, "child", "main.tf"), child+"  }\n}\n")
	want := terraformInit(t, dir, mirror.Dir)

	locks := NewLocks()
	for typeName, pair := range constraints {
		provider, err := addrs.ParseProviderSource(mirror.Source(typeName))
		if err != nil {
			t.Fatal(err)
		}
		var spec discovery.Constraints
		for _, raw := range pair {
			more, err := discovery.ParseConstraints(raw)
			if err != nil {
				t.Fatal(err)
			}
			spec = append(spec, more...)
		}
		hash, err := discovery.PackageHashV1(discovery.PackageLocalDir(filepath.Dir(mirror.Executable(typeName))))
		if err != nil {
			t.Fatal(err)
		}
		locks.SetProvider(provider, versions.MustParseVersion("0.1.0"), spec, []discovery.Hash{hash})
	}
	// The first line names the program that maintains the file, where
	// OpenTofu writes "tofu init" and Terraform "terraform init".
	wantOpenTofu := strings.Replace(string(want), `by "terraform init"`, `by "tofu init"`, 1)
	if got := locks.Bytes(); string(got) != wantOpenTofu {
		t.Errorf("lock file differs from terraform's, its header aside.\nterrane:\n%s\nterraform:\n%s", got, want)
	}
	parsed, ds := Parse(want, FileName)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got := parsed.Bytes(); string(got) != wantOpenTofu {
		t.Errorf("terraform's lock file changed on rewriting, its header aside:\n%s", got)
	}
}

// TestPackageHashMatchesTerraformForAWS checks the h1: hash of a real,
// large provider against the one terraform records.
func TestPackageHashMatchesTerraformForAWS(t *testing.T) {
	const mirrorDir = "/opt/tf-plugins"
	packageDir := filepath.Join(mirrorDir, "registry.terraform.io/hashicorp/aws/5.100.0", discovery.CurrentPlatform().String())
	if _, err := os.Stat(packageDir); err != nil {
		t.Skip("no mirror of hashicorp/aws 5.100.0")
	}
	if testing.Short() {
		t.Skip("hashes hundreds of megabytes")
	}
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "main.tf"),
		"terraform {\n  required_providers {\n    aws = { source = \"registry.terraform.io/hashicorp/aws\", version = \"~> 5.0, >= 5.1\" }\n  }\n}\n")
	want := terraformInit(t, dir, mirrorDir)
	hash, err := discovery.PackageHashV1(discovery.PackageLocalDir(packageDir))
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := discovery.ParseConstraints("~> 5.0, >= 5.1")
	locks := NewLocks()
	locks.SetProvider(addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "aws"},
		versions.MustParseVersion("5.100.0"), spec, []discovery.Hash{hash})
	// The first line names the program that maintains the file, where
	// OpenTofu writes "tofu init" and Terraform "terraform init".
	wantOpenTofu := strings.Replace(string(want), `by "terraform init"`, `by "tofu init"`, 1)
	if got := locks.Bytes(); string(got) != wantOpenTofu {
		t.Errorf("lock file differs from terraform's, its header aside.\nterrane:\n%s\nterraform:\n%s", got, want)
	}
}
