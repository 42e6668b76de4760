package discovery

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"
)

func TestFilesystemMirrorBothLayouts(t *testing.T) {
	ctx := context.Background()
	mirrorDir := t.TempDir()
	null := mustProvider(t, "registry.terraform.io/hashicorp/null")
	writeUnpacked(t, mirrorDir, null, "3.1.0", linuxAMD64)
	writePacked(t, mirrorDir, null, "3.2.0", linuxAMD64)
	writePacked(t, mirrorDir, null, "3.2.0", darwinARM64)
	writeUnpacked(t, mirrorDir, null, "3.3.0-beta1", linuxAMD64)
	// Entries that fit neither layout are skipped with a warning.
	junk := filepath.Join(mirrorDir, "registry.terraform.io", "hashicorp", "null", "notes.txt")
	if err := os.WriteFile(junk, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	mirror := NewFilesystemMirror(mirrorDir)

	available, warnings, err := mirror.AvailableVersions(ctx, null)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := versionStrings(available), []string{"3.1.0", "3.2.0", "3.3.0-beta1"}; !slices.Equal(got, want) {
		t.Errorf("versions = %v, want %v", got, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "notes.txt") {
		t.Errorf("warnings = %v, want one about notes.txt", warnings)
	}

	packed, err := mirror.PackageMeta(ctx, null, versions.MustParseVersion("3.2.0"), darwinARM64)
	if err != nil {
		t.Fatal(err)
	}
	if _, isArchive := packed.Location.(PackageLocalArchive); !isArchive || packed.Filename != "terraform-provider-null_3.2.0_darwin_arm64.zip" {
		t.Errorf("packed package = %+v", packed)
	}
	unpacked, err := mirror.PackageMeta(ctx, null, versions.MustParseVersion("3.1.0"), linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	if _, isDir := unpacked.Location.(PackageLocalDir); !isDir {
		t.Errorf("unpacked package location = %#v, want a directory", unpacked.Location)
	}

	_, err = mirror.PackageMeta(ctx, null, versions.MustParseVersion("3.1.0"), darwinARM64)
	var unsupported *ErrPlatformNotSupported
	if !errors.As(err, &unsupported) || len(unsupported.Available) != 1 || unsupported.Available[0] != linuxAMD64 {
		t.Errorf("error = %v, want platform not supported listing linux_amd64", err)
	}

	_, _, err = mirror.AvailableVersions(ctx, mustProvider(t, "hashicorp/random"))
	var notFound *ErrProviderNotFound
	if !errors.As(err, &notFound) || !strings.Contains(err.Error(), mirrorDir) {
		t.Errorf("error = %v, want provider not found naming the mirror", err)
	}
}

func TestFilesystemMirrorSymlinksAndCase(t *testing.T) {
	ctx := context.Background()
	elsewhere := t.TempDir()
	mirrorDir := t.TempDir()
	provider := mustProvider(t, "example.com/acme/widgets")
	realDir := writeUnpacked(t, elsewhere, provider, "1.0.0", linuxAMD64)
	// The version directory is a symlink, and the host is in upper case.
	versionDir := filepath.Join(mirrorDir, "EXAMPLE.com", "acme", "widgets", "1.0.0")
	if err := os.MkdirAll(filepath.Dir(versionDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(realDir), versionDir); err != nil {
		t.Fatal(err)
	}
	meta, err := NewFilesystemMirror(mirrorDir).PackageMeta(ctx, provider, versions.MustParseVersion("1.0.0"), linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(versionDir, linuxAMD64.String()); meta.Location.String() != want {
		t.Errorf("package location %s, want %s (found through the upper-case host and the link)", meta.Location, want)
	}
	executable, err := FindExecutable(meta.Location.String(), provider.Type)
	if err != nil {
		t.Fatalf("executable in symlinked package: %v", err)
	}
	if got, err := os.ReadFile(executable); err != nil || len(got) == 0 {
		t.Errorf("executable %s unreadable through the link: %v", executable, err)
	}
}

func TestPluginCacheIgnoresZips(t *testing.T) {
	cacheDir := t.TempDir()
	provider := mustProvider(t, "hashicorp/null")
	writePacked(t, cacheDir, provider, "3.2.0", linuxAMD64)
	writeUnpacked(t, cacheDir, provider, "3.1.0", linuxAMD64)
	available, _, err := NewPluginCache(cacheDir).AvailableVersions(context.Background(), provider)
	if err != nil {
		t.Fatal(err)
	}
	if got := versionStrings(available); !slices.Equal(got, []string{"3.1.0"}) {
		t.Errorf("versions = %v, want only the unpacked 3.1.0", got)
	}
}

func TestFilesystemMirrorProviders(t *testing.T) {
	mirrorDir := t.TempDir()
	writeUnpacked(t, mirrorDir, mustProvider(t, "hashicorp/null"), "1.0.0", linuxAMD64)
	writePacked(t, mirrorDir, mustProvider(t, "example.com/acme/widgets"), "2.0.0", linuxAMD64)
	if err := os.MkdirAll(filepath.Join(mirrorDir, "example.com", "acme", "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, provider := range NewFilesystemMirror(mirrorDir).Providers() {
		names = append(names, provider.String())
	}
	if want := []string{"example.com/acme/widgets", "registry.terraform.io/hashicorp/null"}; !slices.Equal(names, want) {
		t.Errorf("providers = %v, want %v", names, want)
	}
}

func TestParsePlatform(t *testing.T) {
	for raw, valid := range map[string]bool{
		"linux_amd64": true, "darwin_arm64": true, "windows_386": true,
		"linux": false, "linux_": false, "_amd64": false, "Linux_amd64": false, "linux_amd64_v2": false,
	} {
		platform, err := ParsePlatform(raw)
		if (err == nil) != valid {
			t.Errorf("ParsePlatform(%q) error = %v, want valid=%v", raw, err, valid)
		}
		if valid && platform.String() != raw {
			t.Errorf("ParsePlatform(%q).String() = %q", raw, platform)
		}
	}
}
