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
)

// BenchmarkProviderFactoriesAWS measures checking hashicorp/aws 5.100.0
// (about 700 MB) against the lock before a run, without and with the
// remembered fingerprint. It needs the mirror at /opt/tf-plugins.
func BenchmarkProviderFactoriesAWS(b *testing.B) {
	const mirrorDir = "/opt/tf-plugins"
	provider := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "aws"}
	version := versions.MustParseVersion("5.100.0")
	platform := discovery.CurrentPlatform()
	source := discovery.UnpackedDir(mirrorDir, provider, version, platform)
	if _, err := os.Stat(source); err != nil {
		b.Skip("no mirror of hashicorp/aws 5.100.0")
	}
	dir := b.TempDir()
	target := discovery.UnpackedDir(ProvidersDir(dir), provider, version, platform)
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Symlink(source, target); err != nil {
		b.Fatal(err)
	}
	hash, err := discovery.PackageHashV1(discovery.PackageLocalDir(source))
	if err != nil {
		b.Fatal(err)
	}
	locks := depsfile.NewLocks()
	locks.SetProvider(provider, version, nil, []discovery.Hash{hash})
	run := func(b *testing.B, forget bool) {
		for b.Loop() {
			if forget {
				os.Remove(filepath.Join(DataDir(dir), verifiedFile))
			}
			if _, ds := ProviderFactories(context.Background(), dir, locks, nil, nil); ds.HasErrors() {
				b.Fatal(ds.Err())
			}
		}
	}
	b.Run("hashing", func(b *testing.B) { run(b, true) })
	b.Run("remembered", func(b *testing.B) { run(b, false) })
}
