package discovery

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/plugin/cliconfig"
)

// writePulumiPlugin creates DIR/resource-NAME-vVERSION/pulumi-resource-NAME
// as `pulumi plugin install` leaves it.
func writePulumiPlugin(t *testing.T, dir, name, version string) string {
	t.Helper()
	pluginDir := filepath.Join(dir, "resource-"+name+"-v"+version)
	if err := os.MkdirAll(pluginDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for file, mode := range map[string]os.FileMode{PulumiExecutablePrefix + name: 0o755, "PulumiPlugin.yaml": 0o644} {
		if err := os.WriteFile(filepath.Join(pluginDir, file), []byte(fakeProviderScript+version+"\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	return pluginDir
}

func TestPulumiPluginDirOffersPulumiNamespaceOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writePulumiPlugin(t, dir, "random", "4.16.0")
	newest := writePulumiPlugin(t, dir, "random", "4.18.1")
	writePulumiPlugin(t, dir, "random-extra", "1.0.0") // a lookalike name, not a version of random
	if err := os.WriteFile(filepath.Join(dir, "resource-random-v4.18.1.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	source := PulumiPluginDir{Dir: dir}

	pulumiRandom := mustProvider(t, "registry.opentofu.org/pulumi/random")
	available, _, err := source.AvailableVersions(ctx, pulumiRandom)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := versionStrings(available), []string{"4.16.0", "4.18.1"}; !slices.Equal(got, want) {
		t.Errorf("versions = %v, want %v", got, want)
	}
	meta, err := source.PackageMeta(ctx, pulumiRandom, versions.MustParseVersion("4.18.1"), CurrentPlatform())
	if err != nil || meta.Location != PackageLocalDir(newest) {
		t.Errorf("package = %+v, %v; want the directory %s", meta, err, newest)
	}
	if _, err := source.PackageMeta(ctx, pulumiRandom, versions.MustParseVersion("4.18.1"), Platform{OS: "plan9", Arch: "mips"}); !errors.As(err, new(*ErrPlatformNotSupported)) {
		t.Errorf("another platform: error %v, want platform not supported (only this machine's builds are there)", err)
	}

	// hashicorp/random is a different provider that happens to share the name.
	if _, _, err := source.AvailableVersions(ctx, mustProvider(t, "hashicorp/random")); !errors.As(err, new(*ErrProviderNotFound)) {
		t.Errorf("hashicorp/random: error %v, want not found", err)
	}
}

func TestFindExecutablePulumiPackage(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		files      map[string]os.FileMode
	}{
		{name: "pulumi only", files: map[string]os.FileMode{"pulumi-resource-tpulumi": 0o755, "README.md": 0o644}, want: "pulumi-resource-tpulumi"},
		{name: "terraform wins", files: map[string]os.FileMode{"pulumi-resource-tpulumi": 0o755, "terraform-provider-tpulumi_v1": 0o755}, want: "terraform-provider-tpulumi_v1"},
		{name: "pulumi name must be exact", files: map[string]os.FileMode{"pulumi-resource-tpulumi-old": 0o755}},
		{name: "not executable", files: map[string]os.FileMode{"pulumi-resource-tpulumi": 0o644}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for file, mode := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, file), []byte(fakeProviderScript), mode); err != nil {
					t.Fatal(err)
				}
			}
			got, err := FindExecutable(dir, "tpulumi")
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("found %s, want an error", got)
			case tc.want != "" && (err != nil || filepath.Base(got) != tc.want):
				t.Errorf("found %s (%v), want %s", got, err, tc.want)
			case tc.want != "" && IsPulumiExecutable(got) != (tc.want == "pulumi-resource-tpulumi"):
				t.Errorf("IsPulumiExecutable(%s) = %v", got, IsPulumiExecutable(got))
			}
		})
	}
}

func TestInstallationSourcesIncludePulumiHome(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	t.Setenv("PULUMI_HOME", home)
	writePulumiPlugin(t, filepath.Join(home, "plugins"), "tpulumi", "0.1.0")
	provider := mustProvider(t, "pulumi/tpulumi")

	// The implied methods' registry lookup would need the network; a
	// provider Pulumi's directory has is not looked up there.
	implied := cliconfig.ImpliedProviderInstallation(cliconfig.Environment{WorkingDir: t.TempDir()})
	source := SourceForInstallationOnline(implied, &Network{})
	available, _, err := source.AvailableVersions(ctx, provider)
	if err != nil || !slices.Equal(versionStrings(available), []string{"0.1.0"}) {
		t.Fatalf("versions = %v, %v; want 0.1.0 from $PULUMI_HOME/plugins", available, err)
	}
	meta, err := source.PackageMeta(ctx, provider, versions.MustParseVersion("0.1.0"), CurrentPlatform())
	if err != nil {
		t.Fatal(err)
	}
	executable, err := InstallPackage(ctx, meta, t.TempDir(), nil)
	if err != nil || !IsPulumiExecutable(executable) {
		t.Errorf("installed %s (%v), want pulumi-resource-tpulumi", executable, err)
	}
}
