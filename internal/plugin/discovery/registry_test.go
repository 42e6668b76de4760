package discovery

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"
	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/testing/providertest"
)

func (r *testRegistry) installer(t *testing.T) *ProviderInstaller {
	network := r.network()
	return &ProviderInstaller{Source: NewRegistrySource(network), Network: network, TargetDir: t.TempDir()}
}

func TestRegistryInstallVerifiesAndInstalls(t *testing.T) {
	registry := newTestRegistry(t)
	installer := registry.installer(t)
	var progress []DownloadProgress
	installer.Network.Progress = func(p DownloadProgress) { progress = append(progress, p) }
	provider := registry.provider(t)

	installed, err := installer.Ensure(context.Background(), provider, mustConstraints(t, "~> 1.0"), versions.Unspecified, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !installed.Version.Same(mustVersion("1.1.0")) {
		t.Errorf("installed v%s, want 1.1.0, the newest meeting ~> 1.0", installed.Version)
	}
	assertSameFile(t, installed.Executable, providertest.Build(t).Executable(testProviderType))
	if want := filepath.Join(installer.TargetDir, registry.host(), "terrane", "tpf", "1.1.0", CurrentPlatform().String()); installed.Dir != want {
		t.Errorf("installed into %s, want %s", installed.Dir, want)
	}
	if !strings.HasPrefix(installed.Authentication, "signed by key ") {
		t.Errorf("authentication = %q, want the signing key named", installed.Authentication)
	}
	h1, err := PackageHashV1(PackageLocalDir(installed.Dir))
	if err != nil {
		t.Fatal(err)
	}
	darwin := Platform{OS: "darwin", Arch: "arm64"}
	for _, want := range []Hash{h1, registry.zipHash("1.1.0", CurrentPlatform()), registry.zipHash("1.1.0", darwin)} {
		if !slices.Contains(installed.Hashes, want) {
			t.Errorf("hashes %v lack %s", installed.Hashes, want)
		}
	}
	if len(progress) == 0 || !progress[len(progress)-1].Done || progress[len(progress)-1].Received != progress[len(progress)-1].Total {
		t.Errorf("progress reports end with %+v, want a completed download", progress[len(progress)-1:])
	}
}

func TestRegistryConstraintResolution(t *testing.T) {
	registry := newTestRegistry(t)
	source := NewRegistrySource(registry.network())
	available, _, err := source.AvailableVersions(context.Background(), registry.provider(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ constraints, want string }{
		{"", "2.0.0"},
		{"< 2.0.0", "1.1.0"},
		{"= 1.0.0", "1.0.0"},
		{">= 1.0.0, != 1.1.0, < 2.0.0", "1.0.0"},
		{"~> 2.0", "2.0.0"},
	}
	for _, test := range tests {
		got, err := SelectVersion(available, mustConstraints(t, test.constraints))
		if err != nil || got.String() != test.want {
			t.Errorf("constraints %q selected %s (%v), want %s", test.constraints, got, err, test.want)
		}
	}

	_, err = registry.installer(t).Ensure(context.Background(), registry.provider(t), mustConstraints(t, "~> 3.0"), versions.Unspecified, nil, false)
	if err == nil || !strings.Contains(err.Error(), "available versions: 1.0.0, 1.1.0, 2.0.0") {
		t.Errorf("error = %v, want the available versions listed", err)
	}
}

func TestRegistryLockedVersionKeptUntilUpgrade(t *testing.T) {
	registry := newTestRegistry(t)
	installer := registry.installer(t)
	provider := registry.provider(t)
	first, err := installer.Ensure(context.Background(), provider, nil, mustVersion("1.0.0"), nil, false)
	if err != nil || !first.Version.Same(mustVersion("1.0.0")) {
		t.Fatalf("with 1.0.0 locked installed v%s (%v), want 1.0.0", first.Version, err)
	}
	upgraded, err := installer.Ensure(context.Background(), provider, nil, mustVersion("1.0.0"), first.Hashes, true)
	if err != nil || !upgraded.Version.Same(mustVersion("2.0.0")) {
		t.Fatalf("upgrade installed v%s (%v), want 2.0.0", upgraded.Version, err)
	}
}

func TestRegistryReinstallFromCache(t *testing.T) {
	registry := newTestRegistry(t)
	cacheDir := t.TempDir()
	first := registry.installer(t)
	first.CacheDir = cacheDir
	provider := registry.provider(t)
	installed, err := first.Ensure(context.Background(), provider, nil, versions.Unspecified, nil, false)
	if err != nil {
		t.Fatal(err)
	}

	// A second working directory with the lock file the first wrote gets
	// the cached copy: nothing is downloaded again.
	second := registry.installer(t)
	second.CacheDir = cacheDir
	again, err := second.Ensure(context.Background(), provider, nil, installed.Version, installed.Hashes, false)
	if err != nil {
		t.Fatal(err)
	}
	if !again.FromCache || registry.downloads.Load() != 1 {
		t.Errorf("second install FromCache=%v after %d downloads, want the cache used and 1 download", again.FromCache, registry.downloads.Load())
	}
	assertSameFile(t, again.Executable, installed.Executable)
	if !slices.Equal(again.Hashes, installed.Hashes) {
		t.Errorf("hashes after the cached install %v, want the locked %v kept", again.Hashes, installed.Hashes)
	}
}

func TestRegistryRejectsPackagesThatFailVerification(t *testing.T) {
	locked := Hash("h1:" + strings.Repeat("A", 43) + "=")
	tests := []struct {
		name       string
		setup      func(*testRegistry)
		acceptable []Hash
		check      func(t *testing.T, err error)
	}{
		{"lock file hash differs", nil, []Hash{locked}, func(t *testing.T, err error) {
			var mismatch *ErrChecksumMismatch
			if !errors.As(err, &mismatch) || !strings.Contains(err.Error(), string(locked)) || !strings.Contains(err.Error(), "h1:") ||
				mismatch.Against != "the dependency lock file" || len(mismatch.Got) == 0 || mismatch.Got[0] == locked {
				t.Errorf("error = %v, want a lock file mismatch naming both hashes", err)
			}
		}},
		{"signed by another key", func(r *testRegistry) { r.signWith = newSigningKey(t, "Intruder") }, nil, func(t *testing.T, err error) {
			var bad *ErrBadSignature
			if !errors.As(err, &bad) || !strings.Contains(err.Error(), "not signed by") {
				t.Errorf("error = %v, want a bad signature", err)
			}
		}},
		{"package replaced", func(r *testRegistry) { r.tamper = true }, nil, func(t *testing.T, err error) {
			var mismatch *ErrChecksumMismatch
			if !errors.As(err, &mismatch) || len(mismatch.Want) != 1 || len(mismatch.Got) != 1 || mismatch.Want[0] == mismatch.Got[0] {
				t.Errorf("error = %v, want a checksum mismatch naming both digests", err)
			}
		}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			registry := newTestRegistry(t)
			if test.setup != nil {
				test.setup(registry)
			}
			installer := registry.installer(t)
			_, err := installer.Install(context.Background(), registry.provider(t), mustVersion("1.1.0"), test.acceptable)
			test.check(t, err)
			if entries, _ := os.ReadDir(installer.TargetDir); len(entries) != 0 {
				t.Errorf("%s has %d entries, want nothing installed", installer.TargetDir, len(entries))
			}
		})
	}
}

func TestRegistryRetriesTransientFailures(t *testing.T) {
	registry := newTestRegistry(t)
	registry.failFirst.Store(2)
	installed, err := registry.installer(t).Install(context.Background(), registry.provider(t), mustVersion("1.0.0"), nil)
	if err != nil {
		t.Fatalf("install after two 503 answers: %v", err)
	}
	assertSameFile(t, installed.Executable, providertest.Build(t).Executable(testProviderType))

	registry.failFirst.Store(100)
	_, err = registry.installer(t).Install(context.Background(), registry.provider(t), mustVersion("1.0.0"), nil)
	var unreachable *ErrUnreachable
	if !errors.As(err, &unreachable) || !strings.Contains(err.Error(), "503") {
		t.Errorf("error = %v, want the registry unreachable after retries", err)
	}
}

func TestRegistryPlatformAndLookupErrors(t *testing.T) {
	registry := newTestRegistry(t)
	installer := registry.installer(t)
	installer.Platform = Platform{OS: "windows", Arch: "amd64"}
	_, err := installer.Install(context.Background(), registry.provider(t), mustVersion("1.0.0"), nil)
	var unsupported *ErrPlatformNotSupported
	if !errors.As(err, &unsupported) || !strings.Contains(err.Error(), "darwin_arm64") || !strings.Contains(err.Error(), CurrentPlatform().String()) {
		t.Errorf("error = %v, want the platform unsupported with the available ones listed", err)
	}

	_, _, err = installer.Source.AvailableVersions(context.Background(), mustProvider(t, registry.host()+"/terrane/absent"))
	var notFound *ErrProviderNotFound
	if !errors.As(err, &notFound) {
		t.Errorf("error = %v, want provider not found", err)
	}

	registry.server.Close()
	closed := newTestRegistry(t) // a fresh discovery cache, same closed host
	network := closed.network()
	_, _, err = NewRegistrySource(network).AvailableVersions(context.Background(), registry.provider(t))
	var unreachable *ErrUnreachable
	if !errors.As(err, &unreachable) {
		t.Errorf("error = %v, want the registry unreachable", err)
	}
}

func TestRegistrySendsCredentials(t *testing.T) {
	registry := newTestRegistry(t)
	registry.token = "s3cret"
	provider := registry.provider(t)
	_, _, err := NewRegistrySource(registry.network()).AvailableVersions(context.Background(), provider)
	if err == nil {
		t.Fatal("listing versions without the token succeeded")
	}
	network := registry.network()
	network.Credentials = NewCredentials(map[svchost.Hostname]cliconfig.Credentials{provider.Hostname: {Token: "s3cret"}}, nil)
	if _, _, err := NewRegistrySource(network).AvailableVersions(context.Background(), provider); err != nil {
		t.Errorf("with the credentials block: %v", err)
	}
}

func TestCredentialsFromEnvironment(t *testing.T) {
	credentials := NewCredentials(
		map[svchost.Hostname]cliconfig.Credentials{"app.example.com": {Token: "from-file"}, "other.example.com": {Token: "file-only"}},
		[]string{"TF_TOKEN_app_example_com=from-env", "TF_TOKEN_my__registry_example_org=dashed", "TF_TOKEN_xn____caf__dma_example=puny", "PATH=/bin"})
	tests := []struct{ host, want string }{
		{"app.example.com", "from-env"},
		{"other.example.com", "file-only"},
		{"my-registry.example.org", "dashed"},
		{"café.example", "puny"},
		{"unknown.example.com", ""},
	}
	for _, test := range tests {
		host, err := svchost.ForComparison(test.host)
		if err != nil {
			t.Fatal(err)
		}
		if got := credentials.Token(host); got != test.want {
			t.Errorf("token for %s = %q, want %q", test.host, got, test.want)
		}
	}
}

func TestMirrorThenInstallWithRegistryGone(t *testing.T) {
	registry := newTestRegistry(t)
	provider := registry.provider(t)
	network := registry.network()
	source := NewRegistrySource(network)
	mirrorDir := t.TempDir()
	platforms := []Platform{CurrentPlatform(), {OS: "darwin", Arch: "arm64"}}
	for _, version := range []string{"1.0.0", "2.0.0"} {
		for _, platform := range platforms {
			meta, err := source.PackageMeta(context.Background(), provider, mustVersion(version), platform)
			if err != nil {
				t.Fatal(err)
			}
			if _, fetchErr, placeErr := MirrorPackage(context.Background(), network, meta, mirrorDir); fetchErr != nil || placeErr != nil {
				t.Fatal(fetchErr, placeErr)
			}
		}
	}
	if err := UpdateMirrorIndexes(mirrorDir); err != nil {
		t.Fatal(err)
	}
	locked, err := PlatformHashes(context.Background(), source, network, provider, mustVersion("2.0.0"), platforms)
	if err != nil {
		t.Fatal(err)
	}
	registry.server.Close()

	// The mirror directory works as a filesystem mirror...
	fromDisk := &ProviderInstaller{Source: NewFilesystemMirror(mirrorDir), TargetDir: t.TempDir()}
	installed, err := fromDisk.Ensure(context.Background(), provider, nil, versions.Unspecified, nil, false)
	if err != nil || !installed.Version.Same(mustVersion("2.0.0")) {
		t.Fatalf("from the filesystem mirror installed v%s (%v), want 2.0.0", installed.Version, err)
	}
	assertSameFile(t, installed.Executable, providertest.Build(t).Executable(testProviderType))

	// ...and, served over HTTPS, as a network mirror whose hashes match
	// what the registry's signed checksums gave the lock file.
	served := httptest.NewTLSServer(http.FileServer(http.Dir(mirrorDir)))
	defer served.Close()
	mirrorNetwork := &Network{Client: served.Client(), RetryWait: 1}
	mirror, err := NewNetworkMirror(served.URL+"/", mirrorNetwork)
	if err != nil {
		t.Fatal(err)
	}
	overHTTP := &ProviderInstaller{Source: mirror, Network: mirrorNetwork, TargetDir: t.TempDir()}
	installed, err = overHTTP.Ensure(context.Background(), provider, mustConstraints(t, ">= 1.0.0"), mustVersion("2.0.0"), locked, false)
	if err != nil {
		t.Fatalf("from the network mirror: %v", err)
	}
	assertSameFile(t, installed.Executable, providertest.Build(t).Executable(testProviderType))
	available, _, err := mirror.AvailableVersions(context.Background(), provider)
	if err != nil || len(available) != 2 {
		t.Errorf("the network mirror lists %v (%v), want 1.0.0 and 2.0.0", available, err)
	}
	mirroredHashes, err := PlatformHashes(context.Background(), mirror, mirrorNetwork, provider, mustVersion("2.0.0"), platforms)
	if err != nil {
		t.Fatal(err)
	}
	for _, hash := range mirroredHashes {
		if !slices.Contains(locked, hash) {
			t.Errorf("the mirror gives hash %s that the registry's packages did not have (%v)", hash, locked)
		}
	}
}
