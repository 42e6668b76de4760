package discovery

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/apparentlymart/go-versions/versions"
)

func TestZipAndDirectoryHashesAgree(t *testing.T) {
	mirrorDir := t.TempDir()
	provider := mustProvider(t, "hashicorp/null")
	zipPath := writePacked(t, mirrorDir, provider, "3.2.0", linuxAMD64)
	meta := PackageMeta{Provider: provider, Version: versions.MustParseVersion("3.2.0"), Platform: linuxAMD64, Location: PackageLocalArchive(zipPath)}
	workDir := t.TempDir()
	if _, err := InstallPackage(context.Background(), meta, workDir, nil); err != nil {
		t.Fatal(err)
	}
	zipHash, err := PackageHashV1(PackageLocalArchive(zipPath))
	if err != nil {
		t.Fatal(err)
	}
	dirHash, err := PackageHashV1(PackageLocalDir(UnpackedDir(workDir, provider, meta.Version, linuxAMD64)))
	if err != nil {
		t.Fatal(err)
	}
	if zipHash != dirHash || zipHash.Scheme() != HashSchemeV1 {
		t.Errorf("zip hash %s and unpacked hash %s must be equal h1: hashes", zipHash, dirHash)
	}

	content, err := os.ReadFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	if legacy, err := PackageHashZip(PackageLocalArchive(zipPath)); err != nil || string(legacy) != "zh:"+hex.EncodeToString(sum[:]) {
		t.Errorf("zh hash = %s, %v; want the zip's sha256", legacy, err)
	}

	// A package directory reached through a symlink hashes like the
	// directory itself.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(UnpackedDir(workDir, provider, meta.Version, linuxAMD64), link); err != nil {
		t.Fatal(err)
	}
	if linked, err := PackageHashV1(PackageLocalDir(link)); err != nil || linked != dirHash {
		t.Errorf("hash through symlink = %s, %v; want %s", linked, err, dirHash)
	}
}

// TestHashesMatchTerraform checks our h1: hashes against the ones Terraform
// writes into a lock file for the same packages.
func TestHashesMatchTerraform(t *testing.T) {
	terraform, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not installed")
	}
	mirrorDir := t.TempDir()
	packed := mustProvider(t, "example.com/test/packed")
	unpacked := mustProvider(t, "example.com/test/unpacked")
	zipPath := writePacked(t, mirrorDir, packed, "1.0.0", linuxAMD64)
	dir := writeUnpacked(t, mirrorDir, unpacked, "2.0.0", linuxAMD64)

	lockHashes := terraformLockHashes(t, terraform, mirrorDir, `
terraform {
  required_providers {
    packed   = { source = "example.com/test/packed", version = "1.0.0" }
    unpacked = { source = "example.com/test/unpacked", version = "2.0.0" }
  }
}`)
	for provider, location := range map[string]PackageLocation{
		packed.String():   PackageLocalArchive(zipPath),
		unpacked.String(): PackageLocalDir(dir),
	} {
		ours, err := PackageHashV1(location)
		if err != nil {
			t.Fatal(err)
		}
		if lockHashes[provider] != string(ours) {
			t.Errorf("%s: our hash %s, Terraform's %q", provider, ours, lockHashes[provider])
		}
	}
}

var lockBlockPattern = regexp.MustCompile(`provider "([^"]+)" \{[^}]*?"(h1:[^"]+)"`)

// terraformLockHashes runs "terraform providers lock" against a filesystem
// mirror and returns the h1: hash it records for each provider.
func terraformLockHashes(t *testing.T, terraform, mirrorDir, config string) map[string]string {
	t.Helper()
	workDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(workDir, "main.tf"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(terraform, "providers", "lock", "-fs-mirror="+mirrorDir, "-platform=linux_amd64")
	cmd.Dir = workDir
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE="+os.DevNull, "TF_IN_AUTOMATION=1")
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform providers lock: %v\n%s", err, output)
	}
	lock, err := os.ReadFile(filepath.Join(workDir, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	hashes := make(map[string]string)
	for _, match := range lockBlockPattern.FindAllStringSubmatch(string(lock), -1) {
		hashes[match[1]] = match[2]
	}
	return hashes
}
