package workdir

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// installTpulumi installs the tpulumi test provider's Pulumi plugin
// directory into dir's providers as version 0.1.0 of
// registry.opentofu.org/pulumi/tpulumi, and returns its address, version
// and package hash.
func installTpulumi(t *testing.T, dir string) (addrs.Provider, versions.Version, discovery.Hash) {
	t.Helper()
	mirror := providertest.Build(t)
	provider := addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: discovery.PulumiNamespace, Type: "tpulumi"}
	version := versions.MustParseVersion("0.1.0")
	target := discovery.UnpackedDir(ProvidersDir(dir), provider, version, discovery.CurrentPlatform())
	if err := os.CopyFS(target, os.DirFS(filepath.Dir(mirror.PulumiExecutable("tpulumi")))); err != nil {
		t.Fatal(err)
	}
	hash, err := discovery.PackageHashV1(discovery.PackageLocalDir(target))
	if err != nil {
		t.Fatal(err)
	}
	return provider, version, hash
}

// TestProviderFactoriesLaunchPulumiProvider installs tpulumi's Pulumi
// plugin directory as an ordinary locked package and checks the factory
// speaks Pulumi's protocol to it.
func TestProviderFactoriesLaunchPulumiProvider(t *testing.T) {
	dir := t.TempDir()
	provider, version, hash := installTpulumi(t, dir)
	locks := depsfile.NewLocks()
	locks.SetProvider(provider, version, nil, []discovery.Hash{hash})

	factories, ds := ProviderFactories(context.Background(), dir, locks, nil, nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	p, err := factories[provider](context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	schema := p.GetProviderSchema(context.Background())
	if schema.Diagnostics.HasErrors() {
		t.Fatal(schema.Diagnostics.Err())
	}
	if _, ok := schema.ResourceTypes["tpulumi_thing"]; !ok {
		t.Errorf("the Pulumi provider's schema has no tpulumi_thing; resource types: %d", len(schema.ResourceTypes))
	}
}
