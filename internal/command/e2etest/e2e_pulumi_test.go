package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/providertest"
	"github.com/terrane/terrane/internal/workdir"
)

// pulumiMixedConfig uses the Pulumi provider tpulumi and the
// Terraform-protocol provider tpf together, with references both ways:
// tpulumi_thing.base → tpf_thing.middle → tpulumi_thing.top.
//
// nonce is set because tpulumi's Check otherwise derives it from the
// random seed kept in the provider's private bytes, and the engine's
// apply-time re-plan of a create passes the prior state's private (none)
// rather than the plan's, so a new seed would change the planned nonce.
const pulumiMixedConfig = `
terraform {
  required_providers {
    tpf     = { source = "registry.terraform.io/terrane/tpf" }
    tpulumi = { source = "pulumi/tpulumi", version = "~> 0.1" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}

provider "tpulumi" {
  root_dir = "CLOUD"
}

resource "tpulumi_thing" "base" {
  name    = "base"
  nonce   = "n-base"
  content = "CONTENT"
  tags    = { team = "infra" }
}

resource "tpf_thing" "middle" {
  name        = "middle"
  description = "base ${tpulumi_thing.base.id} holds ${tpulumi_thing.base.content_length} bytes"
}

resource "tpulumi_thing" "top" {
  name    = "TOPNAME"
  nonce   = "n-top"
  content = tpf_thing.middle.id
}

output "top_length" {
  value = tpulumi_thing.top.content_length
}
`

// tpulumiOnly is the start of a configuration that uses tpulumi alone;
// the resources follow it.
const tpulumiOnly = `
terraform {
  required_providers {
    tpulumi = { source = "pulumi/tpulumi", version = "~> 0.1" }
  }
}

provider "tpulumi" {
  root_dir = "CLOUD"
}
`

// pulumiConfig returns the configuration with the base content and the
// top name filled in.
func pulumiConfig(content, topName string) string {
	return strings.NewReplacer("CONTENT", content, "TOPNAME", topName).Replace(pulumiMixedConfig)
}

// newPulumiProject is newE2EProject with tpulumi installed the way `pulumi
// plugin install` leaves it: in $PULUMI_HOME/plugins/resource-tpulumi-v0.1.0.
func newPulumiProject(t *testing.T, mainTF string) *e2eProject {
	t.Helper()
	return newPulumiProjectWith(t, mainTF, "tpulumi")
}

// newPulumiProjectWith is newPulumiProject with the named Pulumi test
// providers installed (tpulumi, tpf, tpsdk, tpnative).
func newPulumiProjectWith(t *testing.T, mainTF string, packages ...string) *e2eProject {
	t.Helper()
	mirror := providertest.Build(t)
	pulumiHome := t.TempDir()
	plugins := filepath.Join(pulumiHome, "plugins")
	if err := os.MkdirAll(plugins, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range packages {
		pluginDir := filepath.Dir(mirror.PulumiExecutable(name))
		if err := os.Symlink(pluginDir, filepath.Join(plugins, filepath.Base(pluginDir))); err != nil {
			t.Fatal(err)
		}
	}
	p := newUninitialised(t, mainTF)
	p.setenv("PULUMI_HOME", pulumiHome)
	out := p.mustRun("init", "-no-color")
	for _, name := range packages {
		clitest.AssertContains(t, "init", out, "Installed pulumi/"+name+" v0.1.0")
	}
	return p
}

// TestE2EPulumiProviderFromTF drives a configuration mixing a Pulumi
// provider and a Terraform-protocol one through init, plan, apply, a plan
// with no changes, an update, a replacement, drift and destroy.
func TestE2EPulumiProviderFromTF(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, pulumiConfig("hello", "top"))
	assertPulumiLocked(t, p.dir)

	out := p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "first plan", out,
		"tpulumi_thing.base will be created", "tpf_thing.middle will be created", "tpulumi_thing.top will be created",
		"(known after apply)", `content_length = 5`, "Plan: 3 to add, 0 to change, 0 to destroy.")

	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "first apply", out, "Apply complete! Resources: 3 added, 0 changed, 0 destroyed.", "top_length = ")
	pulumiThings, tpfThings := p.objects("tpulumi_thing"), p.objects("tpf_thing")
	if got := strings.Join(sortedNames(pulumiThings), " "); got != "base top" {
		t.Fatalf("Pulumi cloud after apply holds %q", got)
	}
	baseID := strings.TrimSuffix(filepath.Base(pulumiThings["base"].path), ".json")
	middle := tpfThings["middle"]
	if want := "base " + baseID + " holds 5 bytes"; middle.attrs["description"] != want {
		t.Errorf("tpf_thing.middle.description = %v, want %q (from tpulumi_thing.base)", middle.attrs["description"], want)
	}
	if pulumiThings["top"].attrs["content"] != middle.attrs["id"] {
		t.Errorf("tpulumi_thing.top.content = %v, want tpf_thing.middle.id %v", pulumiThings["top"].attrs["content"], middle.attrs["id"])
	}
	p.expectNoChanges("plan after apply")

	// An in-place update of the Pulumi object flows into the tpf object.
	p.write(pulumiConfig("hello, world", "top"))
	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "update", out, "tpulumi_thing.base will be updated in-place", "tpf_thing.middle will be updated in-place",
		"Resources: 0 added, 2 changed, 0 destroyed.")
	if got := p.objects("tpf_thing")["middle"].attrs["description"]; got != "base "+baseID+" holds 12 bytes" {
		t.Errorf("after update tpf_thing.middle.description = %v", got)
	}
	if got := p.objects("tpulumi_thing")["base"].attrs["revision"]; got != float64(2) {
		t.Errorf("after update tpulumi_thing.base revision = %v, want 2 (updated, not recreated)", got)
	}
	p.expectNoChanges("plan after update")

	// name is replaceOnChanges in the Pulumi schema.
	p.write(pulumiConfig("hello, world", "top-2"))
	out = p.mustRun("apply", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "replace", out, "tpulumi_thing.top must be replaced", "forces replacement", "Resources: 1 added, 0 changed, 1 destroyed.")
	if got := strings.Join(sortedNames(p.objects("tpulumi_thing")), " "); got != "base top-2" {
		t.Errorf("Pulumi cloud after replace holds %q", got)
	}
	p.expectNoChanges("plan after replace")

	// Drift: the object is changed outside Terrane.
	p.editObject(p.objects("tpulumi_thing")["base"], func(attrs map[string]any) { attrs["content"] = "edited by hand" })
	out = p.mustRun("plan", "-refresh-only", "-no-color")
	clitest.AssertContains(t, "refresh-only plan after drift", out, "tpulumi_thing.base has changed", `"edited by hand"`)
	out = p.mustRun("plan", "-no-color")
	clitest.AssertContains(t, "plan after drift", out, `~ content        = "edited by hand" -> "hello, world"`,
		"tpulumi_thing.base will be updated in-place", "Plan: 0 to add, 1 to change, 0 to destroy.")
	p.mustRun("apply", "-auto-approve", "-no-color")
	if got := p.objects("tpulumi_thing")["base"].attrs["content"]; got != "hello, world" {
		t.Errorf("apply after drift left content %v", got)
	}
	p.expectNoChanges("plan after drift repaired")

	out = p.mustRun("destroy", "-auto-approve", "-no-color")
	clitest.AssertContains(t, "destroy", out, "Destroy complete! Resources: 3 destroyed.")
	if left := len(p.objects("tpulumi_thing")) + len(p.objects("tpf_thing")); left != 0 {
		t.Errorf("destroy left %d objects in the clouds", left)
	}
	if got := p.recordedInstances(); len(got) != 0 {
		t.Errorf("destroy left records %v", got)
	}
}

// assertPulumiLocked checks that init recorded the Pulumi provider in the
// dependency lock file with an h1: hash, like any other provider.
func assertPulumiLocked(t *testing.T, dir string) {
	t.Helper()
	locks, ds := depsfile.LoadFile(workdir.LockFilePath(dir))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	for _, provider := range locks.SortedProviders() {
		if provider.Type != "tpulumi" {
			continue
		}
		lock := locks.Provider(provider)
		if lock.Version().String() != "0.1.0" || len(lock.Hashes()) == 0 || !strings.HasPrefix(string(lock.Hashes()[0]), "h1:") {
			t.Errorf("lock for %s: version %s, hashes %v; want 0.1.0 with an h1: hash", provider, lock.Version(), lock.Hashes())
		}
		return
	}
	t.Errorf("the lock file has no entry for tpulumi")
}
