package discovery

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"
)

func TestInstallFromZipAndDirectory(t *testing.T) {
	ctx := context.Background()
	mirrorDir := t.TempDir()
	provider := mustProvider(t, "hashicorp/null")
	writePacked(t, mirrorDir, provider, "3.2.0", linuxAMD64)
	unpackedSource := writeUnpacked(t, mirrorDir, provider, "3.1.0", linuxAMD64)
	installer := Installer{Source: NewFilesystemMirror(mirrorDir)}
	workDir := filepath.Join(t.TempDir(), ".terrane", "providers")

	for _, version := range []string{"3.2.0", "3.1.0"} {
		t.Run(version, func(t *testing.T) {
			executable, err := installer.Install(ctx, provider, versions.MustParseVersion(version), linuxAMD64, workDir)
			if err != nil {
				t.Fatal(err)
			}
			wantDir := filepath.Join(workDir, "registry.terraform.io", "hashicorp", "null", version, "linux_amd64")
			if executable != filepath.Join(wantDir, executableName(provider, version)) {
				t.Errorf("executable = %s, want it in %s", executable, wantDir)
			}
			info, err := os.Stat(executable)
			if err != nil || info.Mode().Perm()&0o100 == 0 {
				t.Fatalf("installed executable: %v, mode %v", err, info.Mode())
			}
			content, _ := os.ReadFile(executable)
			if !strings.Contains(string(content), version) {
				t.Errorf("installed executable holds %q, want the %s build", content, version)
			}
			// Installing again replaces the installation instead of failing.
			if _, err := installer.Install(ctx, provider, versions.MustParseVersion(version), linuxAMD64, workDir); err != nil {
				t.Errorf("second install: %v", err)
			}
		})
	}
	linked := filepath.Join(workDir, "registry.terraform.io", "hashicorp", "null", "3.1.0", "linux_amd64")
	if target, err := os.Readlink(linked); err != nil || target != unpackedSource {
		t.Errorf("unpacked package installed as %q (%v), want a link to %s", target, err, unpackedSource)
	}
}

func TestInstallVerifiesLockedHashes(t *testing.T) {
	mirrorDir := t.TempDir()
	provider := mustProvider(t, "hashicorp/null")
	zipPath := writePacked(t, mirrorDir, provider, "3.2.0", linuxAMD64)
	meta := PackageMeta{Provider: provider, Version: versions.MustParseVersion("3.2.0"), Platform: linuxAMD64, Location: PackageLocalArchive(zipPath)}
	workDir := t.TempDir()

	_, err := InstallPackage(context.Background(), meta, workDir, []Hash{"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
	if err == nil || !strings.Contains(err.Error(), "does not match any checksum") {
		t.Fatalf("error = %v, want a checksum mismatch", err)
	}
	if _, statErr := os.Stat(UnpackedDir(workDir, provider, meta.Version, linuxAMD64)); !os.IsNotExist(statErr) {
		t.Errorf("a package that failed verification was unpacked")
	}
	zipHash, err := PackageHashZip(PackageLocalArchive(zipPath))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := InstallPackage(context.Background(), meta, workDir, []Hash{"h1:AAAA", zipHash}); err != nil {
		t.Errorf("install with a matching zh: hash: %v", err)
	}
}

func TestInstallRefusesUnsafeZips(t *testing.T) {
	provider := mustProvider(t, "hashicorp/null")
	for name, entries := range map[string]map[string]zipEntry{
		"parent path":   {"../escape": {content: "x", mode: 0o755}},
		"absolute path": {"/tmp/escape": {content: "x", mode: 0o755}},
		"symlink":       {"terraform-provider-null": {content: "/etc/passwd", mode: os.ModeSymlink | 0o777}},
	} {
		t.Run(name, func(t *testing.T) {
			zipPath := filepath.Join(t.TempDir(), "terraform-provider-null_1.0.0_linux_amd64.zip")
			writeZip(t, zipPath, entries)
			workDir := t.TempDir()
			meta := PackageMeta{Provider: provider, Version: versions.MustParseVersion("1.0.0"), Platform: linuxAMD64, Location: PackageLocalArchive(zipPath)}
			if _, err := InstallPackage(context.Background(), meta, workDir, nil); err == nil {
				t.Fatal("unsafe zip was installed")
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(workDir), "escape")); err == nil {
				t.Error("a file was written outside the package directory")
			}
			if _, err := os.Stat(UnpackedDir(workDir, provider, meta.Version, linuxAMD64)); !os.IsNotExist(err) {
				t.Errorf("a partial package was left behind")
			}
		})
	}
}

func TestFindExecutable(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]os.FileMode
		want    string
		wantErr string
	}{
		{name: "versioned binary", files: map[string]os.FileMode{"terraform-provider-aws_v5.100.0_x5": 0o755, "LICENSE.txt": 0o644}, want: "terraform-provider-aws_v5.100.0_x5"},
		{name: "bare name", files: map[string]os.FileMode{"terraform-provider-aws": 0o755}, want: "terraform-provider-aws"},
		{name: "not executable", files: map[string]os.FileMode{"terraform-provider-aws_v1": 0o644}, wantErr: "chmod +x"},
		{name: "other provider", files: map[string]os.FileMode{"terraform-provider-azurerm": 0o755}, wantErr: "contains no file named terraform-provider-aws*"},
		{name: "directory with the name", files: map[string]os.FileMode{"terraform-provider-aws": os.ModeDir | 0o755}, wantErr: "contains no file"},
		{name: "first by name", files: map[string]os.FileMode{"terraform-provider-aws_v2": 0o755, "terraform-provider-aws_v1": 0o755}, want: "terraform-provider-aws_v1"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, mode := range test.files {
				path := filepath.Join(dir, name)
				var err error
				if mode.IsDir() {
					err = os.Mkdir(path, 0o755)
				} else {
					err = os.WriteFile(path, []byte(fakeProviderScript), mode.Perm())
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			got, err := FindExecutable(dir, "aws")
			if test.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), test.wantErr) {
					t.Errorf("error = %v, want one containing %q", err, test.wantErr)
				}
				return
			}
			if err != nil || got != filepath.Join(dir, test.want) {
				t.Errorf("FindExecutable = %q, %v; want %s", got, err, test.want)
			}
		})
	}
}

func TestFindExecutableFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(t.TempDir(), "build-output")
	if err := os.WriteFile(real, []byte(fakeProviderScript), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(dir, "terraform-provider-aws")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "terraform-provider-aws")
	if got, err := FindExecutable(dir, "aws"); err != nil || got != link {
		t.Errorf("FindExecutable = %q, %v; want the link %s", got, err, link)
	}
	// A link to nothing is not an executable.
	if err := os.Remove(real); err != nil {
		t.Fatal(err)
	}
	if got, err := FindExecutable(dir, "aws"); err == nil {
		t.Errorf("FindExecutable found %q through a dangling link", got)
	}
}

func TestInstallThroughCache(t *testing.T) {
	ctx := context.Background()
	mirrorDir, cacheDir := t.TempDir(), t.TempDir()
	provider := mustProvider(t, "hashicorp/null")
	zipPath := writePacked(t, mirrorDir, provider, "3.2.0", linuxAMD64)
	meta := PackageMeta{Provider: provider, Version: versions.MustParseVersion("3.2.0"), Platform: linuxAMD64, Location: PackageLocalArchive(zipPath)}
	lockedHash, err := PackageHashV1(meta.Location)
	if err != nil {
		t.Fatal(err)
	}
	cachedDir := UnpackedDir(cacheDir, provider, meta.Version, linuxAMD64)
	for _, workDir := range []string{t.TempDir(), t.TempDir()} {
		executable, err := InstallThroughCache(ctx, meta, cacheDir, workDir, []Hash{lockedHash})
		if err != nil {
			t.Fatal(err)
		}
		installed := UnpackedDir(workDir, provider, meta.Version, linuxAMD64)
		if target, err := os.Readlink(installed); err != nil || target != cachedDir {
			t.Errorf("%s links to %q (%v), want the cached copy %s", installed, target, err, cachedDir)
		}
		if filepath.Dir(executable) != installed {
			t.Errorf("executable %s is not in %s", executable, installed)
		}
	}
	// Once cached, the mirror's zip is not needed any more.
	if err := os.Remove(zipPath); err != nil {
		t.Fatal(err)
	}
	if _, err := InstallThroughCache(ctx, meta, cacheDir, t.TempDir(), []Hash{lockedHash}); err != nil {
		t.Errorf("install from the cache alone: %v", err)
	}
}
