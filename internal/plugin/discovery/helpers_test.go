package discovery

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

var (
	linuxAMD64  = Platform{OS: "linux", Arch: "amd64"}
	darwinARM64 = Platform{OS: "darwin", Arch: "arm64"}
)

// fakeProviderScript is what the fake provider executables contain:
// discovery only looks at files, so a shell script stands in for a binary.
const fakeProviderScript = "#!/bin/sh\necho fake provider\n"

func mustProvider(t *testing.T, raw string) tfaddr.Provider {
	t.Helper()
	provider, err := tfaddr.ParseProviderSource(raw)
	if err != nil {
		t.Fatal(err)
	}
	return provider
}

func executableName(provider tfaddr.Provider, version string) string {
	return "terraform-provider-" + provider.Type + "_v" + version + "_x5"
}

// writeUnpacked creates a package of the unpacked layout under base and
// returns its directory.
func writeUnpacked(t *testing.T, base string, provider tfaddr.Provider, version string, platform Platform) string {
	t.Helper()
	dir := UnpackedDir(base, provider, versions.MustParseVersion(version), platform)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, executableName(provider, version)), []byte(fakeProviderScript+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "LICENSE.txt"), []byte("license text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writePacked creates a package zip of the packed layout under base, with
// the same content writeUnpacked gives, and returns its path.
func writePacked(t *testing.T, base string, provider tfaddr.Provider, version string, platform Platform) string {
	t.Helper()
	dir := filepath.Join(base, provider.Hostname.ForDisplay(), provider.Namespace, provider.Type)
	path := filepath.Join(dir, StandardFilename(provider, versions.MustParseVersion(version), platform))
	writeZip(t, path, map[string]zipEntry{
		executableName(provider, version): {content: fakeProviderScript + version + "\n", mode: 0o755},
		"LICENSE.txt":                     {content: "license text\n", mode: 0o644},
	})
	return path
}

type zipEntry struct {
	content string
	mode    os.FileMode
}

func writeZip(t *testing.T, path string, entries map[string]zipEntry) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	writer := zip.NewWriter(file)
	for name, entry := range entries {
		header := &zip.FileHeader{Name: name, Method: zip.Deflate}
		header.SetMode(entry.mode)
		w, err := writer.CreateHeader(header)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(entry.content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
}

func versionStrings(list versions.List) []string {
	out := make([]string, len(list))
	for i, version := range list {
		out[i] = version.String()
	}
	return out
}
