package depsfile

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

func TestVerifyPackage(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "terraform-provider-demo_v1.0.0"), "#!/bin/sh\n")
	good, err := discovery.PackageHashV1(discovery.PackageLocalDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	provider := addrs.NewDefaultProvider("demo")
	version := versions.MustParseVersion("1.0.0")

	if diag := NewProviderLock(provider, version, nil, []discovery.Hash{"zh:ff", good}).VerifyPackage(discovery.PackageLocalDir(dir)); diag != nil {
		t.Errorf("matching package refused: %s", diag.Detail)
	}
	if diag := NewProviderLock(provider, version, nil, nil).VerifyPackage(discovery.PackageLocalDir(dir)); diag != nil {
		t.Errorf("a lock without hashes refused the package: %s", diag.Detail)
	}

	writeTestFile(t, filepath.Join(dir, "terraform-provider-demo_v1.0.0"), "#!/bin/sh\necho changed\n")
	changed, _ := discovery.PackageHashV1(discovery.PackageLocalDir(dir))
	diag := NewProviderLock(provider, version, nil, []discovery.Hash{good}).VerifyPackage(discovery.PackageLocalDir(dir))
	if diag == nil {
		t.Fatal("a changed package was accepted")
	}
	for _, want := range []string{string(good), string(changed), "demo v1.0.0", "terrane init"} {
		if !strings.Contains(diag.Detail, want) {
			t.Errorf("the diagnostic does not mention %q:\n%s", want, diag.Detail)
		}
	}
	if diag.Address != provider.String() {
		t.Errorf("diagnostic address %q, want %q", diag.Address, provider)
	}
}
