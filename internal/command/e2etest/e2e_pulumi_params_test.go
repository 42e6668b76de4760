package e2etest

import (
	"os"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/workdir"
)

// pulumiParamsConfig uses tpulumi's sub-package widgets (made by
// Parameterize with PARAMS) beside plain tpulumi and tpf, with references
// across all three.
const pulumiParamsConfig = `
terraform {
  required_providers {
    tpf     = { source = "registry.terraform.io/terrane/tpf" }
    tpulumi = { source = "pulumi/tpulumi", version = "~> 0.1" }
    widgets = { source = "pulumi/tpulumi", version = "~> 0.1", parameters = PARAMS }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

provider "tpulumi" {
  root_dir = "CLOUD"
}

provider "widgets" {
  root_dir = "CLOUD"
}

resource "tpulumi_thing" "base" {
  name    = "base"
  nonce   = "n-base"
  content = "hello"
}

resource "widgets_gadget" "g" {
  name    = "gadget"
  nonce   = "n-gadget"
  content = "from ${tpulumi_thing.base.id}"
}

resource "tpf_thing" "record" {
  name        = "record"
  description = "gadget ${widgets_gadget.g.id} holds ${widgets_gadget.g.content_length} bytes"
}
`

func pulumiParamsConfigWith(params string) string {
	return strings.ReplaceAll(pulumiParamsConfig, "PARAMS", params)
}

// TestE2EPulumiSubpackage drives a parameterized Pulumi sub-package
// through init (which records its parameterization in the lock file),
// plan, apply, a plan with no changes and destroy.
func TestE2EPulumiSubpackage(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, pulumiParamsConfigWith(`["widgets"]`))
	assertSubpackageLocked(t, p.dir)

	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "first plan", out, "widgets_gadget.g will be created", "tpulumi_thing.base will be created",
		"tpf_thing.record will be created", "Plan: 3 to add, 0 to change, 0 to destroy.")
	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "apply", out, "Apply complete! Resources: 3 added, 0 changed, 0 destroyed.")
	gadgets, things := p.objects("widgets_gadget"), p.objects("tpulumi_thing")
	if len(gadgets) != 1 || len(things) != 1 {
		t.Fatalf("after apply the cloud holds gadgets %v and things %v, want one of each", sortedNames(gadgets), sortedNames(things))
	}
	if got := gadgets["gadget"].attrs["content"].(string); !strings.HasPrefix(got, "from ") || got == "from " {
		t.Errorf("widgets_gadget.g.content = %q, want it to name tpulumi_thing.base's ID", got)
	}
	if got := p.objects("tpf_thing")["record"].attrs["description"]; !strings.Contains(got.(string), "holds ") {
		t.Errorf("tpf_thing.record.description = %v", got)
	}
	p.expectNoChanges("plan after apply")

	// A second init reuses the record without launching the provider.
	out = p.mustRun("init", "-no-color")
	clitest.AssertContains(t, "second init", out, "Reusing sub-package widgets v1.0.0 from the dependency lock file")

	out = p.mustRun("destroy", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "destroy", out, "Destroy complete! Resources: 3 destroyed.")
	if left := len(p.objects("widgets_gadget")) + len(p.objects("tpulumi_thing")) + len(p.objects("tpf_thing")); left != 0 {
		t.Errorf("destroy left %d objects in the clouds", left)
	}
}

// assertSubpackageLocked checks the lock file: widgets recorded as made
// from tpulumi, and the plain tpulumi block as Terraform writes it.
func assertSubpackageLocked(t *testing.T, dir string) {
	t.Helper()
	locks, ds := depsfile.LoadFile(workdir.LockFilePath(dir))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	base := addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "pulumi", Type: "tpulumi"}
	widgets := addrs.Provider{Hostname: base.Hostname, Namespace: base.Namespace, Type: "widgets"}
	lock := locks.Provider(widgets)
	if lock == nil {
		t.Fatalf("the lock file has no block for %s", widgets)
	}
	record := lock.Parameterization()
	if record == nil || record.Base != base || record.Name != "widgets" || record.Version != "1.0.0" || string(record.Value) != "widgets" {
		t.Errorf("widgets' parameterization = %+v", record)
	}
	if plain := locks.Provider(base); plain == nil || plain.Parameterization() != nil || !slicesEqualHashes(plain, lock) {
		t.Errorf("tpulumi's lock %v should have no parameterization and the same package hashes as widgets' %v", plain, lock)
	}
	src, err := os.ReadFile(workdir.LockFilePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(src), "parameterization = {"); n != 1 {
		t.Errorf("the lock file has %d parameterization attributes, want 1:\n%s", n, src)
	}
}

func slicesEqualHashes(a, b *depsfile.ProviderLock) bool {
	return strings.Join(hashStrings(a), ",") == strings.Join(hashStrings(b), ",")
}

func hashStrings(lock *depsfile.ProviderLock) []string {
	var out []string
	for _, hash := range lock.Hashes() {
		out = append(out, string(hash))
	}
	return out
}

// TestE2EPulumiSubpackageDiagnostics checks what init and plan say about
// changed, rejected and misplaced parameters.
func TestE2EPulumiSubpackageDiagnostics(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, pulumiParamsConfigWith(`["widgets"]`))

	p.write(pulumiParamsConfigWith(`["gizmos"]`))
	_, errOut, code := p.run("plan", "-no-color")
	if code == 0 {
		t.Fatal("plan used the recorded sub-package although the parameters changed")
	}
	clitest.AssertContains(t, "plan after changing parameters", errOut, "terrane init -upgrade")

	_, errOut, code = p.run("init", "-no-color")
	if code == 0 {
		t.Fatal("init accepted parameters that differ from the recorded ones")
	}
	clitest.AssertContains(t, "init after changing parameters", errOut, "Sub-package parameters changed", `["widgets"]`, `["gizmos"]`, "terrane init -upgrade")

	_, errOut, code = p.run("init", "-upgrade", "-no-color")
	if code == 0 {
		t.Fatal("init -upgrade accepted a sub-package named unlike its requirement")
	}
	clitest.AssertContains(t, "init -upgrade with another sub-package name", errOut, "Sub-package name does not match its local name", `rename the requirement to "gizmos"`)

	p.write(pulumiParamsConfigWith(`["Not A Name"]`))
	_, errOut, code = p.run("init", "-upgrade", "-no-color")
	if code == 0 {
		t.Fatal("init accepted parameters the provider rejects")
	}
	clitest.AssertContains(t, "init with rejected parameters", errOut, "Parameterize", "Not A Name", "check them in the provider's requirement")

	p.write(strings.Replace(pulumiParamsConfigWith(`["widgets"]`), `tpf     = { source = "registry.terraform.io/terrane/tpf" }`,
		`tpf     = { source = "registry.terraform.io/terrane/tpf" }
    gadgets = { source = "registry.terraform.io/terrane/tpf", parameters = ["x"] }`, 1))
	_, errOut, code = p.run("init", "-no-color")
	if code == 0 {
		t.Fatal("init accepted parameters for a Terraform-protocol provider")
	}
	clitest.AssertContains(t, "init with parameters for tpf", errOut, "not a Pulumi provider", "Remove parameters")
}
