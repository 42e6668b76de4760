package depsfile

import (
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

const subpackageLockFile = `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/pulumi/widgets" {
  version     = "0.1.0"
  constraints = "~> 0.1"
  hashes = [
    "h1:abc=",
  ]
  parameterization = {
    args    = ["widgets"]
    base    = "registry.opentofu.org/pulumi/tpulumi"
    name    = "widgets"
    value   = "d2lkZ2V0cw=="
    version = "1.0.0"
  }
}
`

func TestParameterizationRoundTrip(t *testing.T) {
	widgets := addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "pulumi", Type: "widgets"}
	base := addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "pulumi", Type: "tpulumi"}
	constraints, _ := discovery.ParseConstraints("~> 0.1")
	locks := NewLocks()
	record := &Parameterization{Base: base, Args: []string{"widgets"}, Name: "widgets", Version: "1.0.0", Value: []byte("widgets")}
	locks.SetProviderLock(NewProviderLock(widgets, versions.MustParseVersion("0.1.0"), constraints, []discovery.Hash{"h1:abc="}).WithParameterization(record))
	if got := string(locks.Bytes()); got != subpackageLockFile {
		t.Fatalf("written:\n%s\nwant:\n%s", got, subpackageLockFile)
	}
	parsed, ds := Parse([]byte(subpackageLockFile), FileName)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	lock := parsed.Provider(widgets)
	if lock == nil || !lock.Parameterization().Equal(record) || lock.Package() != base {
		t.Fatalf("read back %+v", lock)
	}
	if !parsed.Equal(locks) {
		t.Error("the parsed locks differ from the written ones")
	}
	plain := NewProviderLock(widgets, versions.MustParseVersion("0.1.0"), constraints, []discovery.Hash{"h1:abc="})
	if plain.Equal(lock) || plain.Package() != widgets {
		t.Error("a lock without parameterization equals one with it, or is not its own package")
	}
}

func TestParameterizationInvalid(t *testing.T) {
	for name, record := range map[string]string{
		"not an object":  `"widgets"`,
		"bad base":       `{ args = ["w"], base = "pulumi/tpulumi", name = "w", value = "", version = "1" }`,
		"bad base64":     `{ args = ["w"], base = "registry.opentofu.org/pulumi/tpulumi", name = "w", value = "!!", version = "1" }`,
		"no args":        `{ args = [], base = "registry.opentofu.org/pulumi/tpulumi", name = "w", value = "", version = "1" }`,
		"extra":          `{ args = ["w"], base = "registry.opentofu.org/pulumi/tpulumi", name = "w", value = "", version = "1", more = 1 }`,
		"missing fields": `{ args = ["w"] }`,
	} {
		src := "provider \"registry.opentofu.org/pulumi/widgets\" {\n  version = \"0.1.0\"\n  parameterization = " + record + "\n}\n"
		_, ds := Parse([]byte(src), FileName)
		if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "terrane init -upgrade") || !strings.Contains(ds.Err().Error(), FileName+":3") {
			t.Errorf("%s: got %v, want an error at line 3 saying to run terrane init -upgrade", name, ds.Err())
		}
	}
}
