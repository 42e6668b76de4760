package workdir

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// installTestProvider copies a test provider's package from the mirror into
// dir's .terrane/providers (a copy, so tests may change it) and returns the
// provider and a lock recording the package's hash.
func installTestProvider(t *testing.T, mirror *providertest.Mirror, dir, typeName string) (addrs.Provider, *depsfile.Locks) {
	t.Helper()
	provider, err := addrs.ParseProviderSource(mirror.Source(typeName))
	if err != nil {
		t.Fatal(err)
	}
	version := versions.MustParseVersion("0.1.0")
	source := filepath.Dir(mirror.Executable(typeName))
	target := discovery.UnpackedDir(ProvidersDir(dir), provider, version, discovery.CurrentPlatform())
	if err := os.CopyFS(target, os.DirFS(source)); err != nil {
		t.Fatal(err)
	}
	hash, err := discovery.PackageHashV1(discovery.PackageLocalDir(target))
	if err != nil {
		t.Fatal(err)
	}
	locks := depsfile.NewLocks()
	locks.SetProvider(provider, version, nil, []discovery.Hash{hash})
	return provider, locks
}

func schemaStore(t *testing.T) *plugin.SchemaStore {
	return plugin.NewSchemaStore(t.TempDir())
}

func TestProviderFactoriesLaunchInstalledProvider(t *testing.T) {
	mirror := providertest.Build(t)
	dir := t.TempDir()
	provider, locks := installTestProvider(t, mirror, dir, "tpf")
	factories, ds := ProviderFactories(context.Background(), dir, locks, nil, schemaStore(t))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	factory := factories[provider]
	if factory == nil {
		t.Fatalf("no factory for %s; got %d factories", provider, len(factories))
	}
	p, err := factory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if schema := p.GetProviderSchema(context.Background()); schema.Diagnostics.HasErrors() || len(schema.ResourceTypes) == 0 {
		t.Errorf("the launched provider gave no resource schemas: %v", schema.Diagnostics.Err())
	}
	// The second run uses the remembered hash; it must still succeed.
	if _, ds := ProviderFactories(context.Background(), dir, locks, nil, nil); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
}

func TestProviderFactoriesRefuseTamperedPackage(t *testing.T) {
	mirror := providertest.Build(t)
	dir := t.TempDir()
	provider, locks := installTestProvider(t, mirror, dir, "tpf")
	// A first run verifies and remembers the package ...
	if _, ds := ProviderFactories(context.Background(), dir, locks, nil, nil); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	// ... which is then changed behind Terrane's back.
	packageDir := discovery.UnpackedDir(ProvidersDir(dir), provider, locks.Provider(provider).Version(), discovery.CurrentPlatform())
	executable, err := discovery.FindExecutable(packageDir, provider.Type)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(executable, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("tampered"))
	f.Close()

	factories, ds := ProviderFactories(context.Background(), dir, locks, nil, nil)
	if factories[provider] != nil {
		t.Error("a factory was returned for the tampered package")
	}
	requireError(t, ds, "does not match the dependency lock file", string(locks.Provider(provider).Hashes()[0]), "terrane init")
}

func TestProviderFactoriesMissingPackage(t *testing.T) {
	dir := t.TempDir()
	provider := addrs.NewDefaultProvider("null")
	locks := depsfile.NewLocks()
	locks.SetProvider(provider, versions.MustParseVersion("3.2.1"), nil, []discovery.Hash{"h1:abc="})
	factories, ds := ProviderFactories(context.Background(), dir, locks, nil, nil)
	if len(factories) != 0 {
		t.Errorf("got factories for a provider that is not installed")
	}
	requireError(t, ds, "not installed", "hashicorp/null v3.2.1", "terrane init")
}

func TestProviderFactoriesDevOverrideBypassesLock(t *testing.T) {
	mirror := providertest.Build(t)
	dir := t.TempDir()
	provider, err := addrs.ParseProviderSource(mirror.Source("tpf5"))
	if err != nil {
		t.Fatal(err)
	}
	locks := depsfile.NewLocks()
	// The lock names a version that is not installed and a hash no build
	// has: an override is used anyway.
	locks.SetProvider(provider, versions.MustParseVersion("9.9.9"), nil, []discovery.Hash{"h1:nothing="})
	cli := &cliconfig.Config{ProviderInstallation: &cliconfig.ProviderInstallation{
		DevOverrides: map[addrs.Provider]string{provider: filepath.Dir(mirror.Executable("tpf5"))},
	}}
	factories, ds := ProviderFactories(context.Background(), dir, locks, cli, nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if len(ds) != 1 || !strings.Contains(ds[0].Summary, "development overrides") {
		t.Errorf("want one warning about development overrides, got %v", ds)
	}
	p, err := factories[provider](context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
}

func requireError(t *testing.T, ds diags.Diagnostics, wants ...string) {
	t.Helper()
	if !ds.HasErrors() {
		t.Fatalf("no error; diagnostics: %v", ds)
	}
	text := ds.Err().Error()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("the error does not mention %q:\n%s", want, text)
		}
	}
}
