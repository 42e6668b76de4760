package depsfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

const sampleLockFile = `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/random" {
  version = "3.6.0"
}

provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.100.0"
  constraints = ">= 5.0.0, < 6.0.0"
  hashes = [
    "h1:edXOJWE4ORX8Fm+dpVpICzMZJat4AX0VRCAy/xkcOc0=",
    "zh:0123456789abcdef",
  ]
}

provider "registry.terraform.io/hashicorp/null" {
  version     = "3.2.1"
  constraints = "~> 3.0"
  hashes = [
    "h1:a=",
  ]
}
`

func TestParseAndWriteRoundTrip(t *testing.T) {
	locks, ds := Parse([]byte(sampleLockFile), FileName)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if got := string(locks.Bytes()); got != sampleLockFile {
		t.Errorf("rewritten file differs:\n%s\nwant:\n%s", got, sampleLockFile)
	}
	aws := locks.Provider(addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "aws"})
	if aws == nil {
		t.Fatal("no lock for aws")
	}
	if aws.Version().String() != "5.100.0" || len(aws.Hashes()) != 2 || ConstraintsString(aws.Constraints()) != ">= 5.0.0, < 6.0.0" {
		t.Errorf("aws lock read wrongly: %s", aws)
	}
}

func TestWriteSortsProvidersAndHashes(t *testing.T) {
	locks := NewLocks()
	null := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "null"}
	aws := addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "aws"}
	random := addrs.NewDefaultProvider("random")
	nullConstraints, _ := discovery.ParseConstraints("~> 3")
	awsConstraints, _ := discovery.ParseConstraints("< 6, >= 5")
	locks.SetProvider(null, versions.MustParseVersion("3.2.1"), nullConstraints, []discovery.Hash{"h1:a=", "h1:a="})
	locks.SetProvider(aws, versions.MustParseVersion("5.100.0"), awsConstraints,
		[]discovery.Hash{"zh:0123456789abcdef", "h1:edXOJWE4ORX8Fm+dpVpICzMZJat4AX0VRCAy/xkcOc0="})
	locks.SetProvider(random, versions.MustParseVersion("3.6.0"), nil, nil)
	if got := string(locks.Bytes()); got != sampleLockFile {
		t.Errorf("written file:\n%s\nwant:\n%s", got, sampleLockFile)
	}
}

func TestWriteFileAndLoadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	missing, ds := LoadFile(path)
	if ds.HasErrors() || !missing.Empty() {
		t.Fatalf("a missing lock file should read as empty locks: %v", ds)
	}
	locks, _ := Parse([]byte(sampleLockFile), FileName)
	if err := locks.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("lock file mode %v, want 0644", info.Mode().Perm())
	}
	again, ds := LoadFile(path)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if !again.Equal(locks) {
		t.Error("the file read back differs from what was written")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left beside the lock file: %v", entries)
	}
}

func TestParseReportsProblemsWithRanges(t *testing.T) {
	for _, tc := range []struct {
		name, src, summary string
		line               int
	}{
		{"syntax", "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \n}\n", "", 2},
		{"short address", "provider \"hashicorp/null\" {\n  version = \"3.2.1\"\n}\n", "Non-normalized provider source address", 1},
		{"bad address", "provider \"not an/address!\" {\n  version = \"3.2.1\"\n}\n", "Invalid provider source address", 1},
		{"built-in", "provider \"terraform.io/builtin/terraform\" {\n  version = \"1.0.0\"\n}\n", "Invalid provider source address", 1},
		{"missing version", "provider \"registry.terraform.io/hashicorp/null\" {\n}\n", "Missing required argument", 1},
		{"bad version", "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"three\"\n}\n", "Invalid provider version number", 2},
		{"abbreviated version", "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2\"\n}\n", "Invalid provider version number", 2},
		{"non-canonical constraints", "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2.1\"\n  constraints = \">=3\"\n}\n", "Invalid provider version constraints", 3},
		{"empty hashes", "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = []\n}\n", "Invalid provider hash set", 3},
		{"bad hash", "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = [\n    \"h1:a=\",\n    \"nocolon\",\n  ]\n}\n", "Invalid provider hash string", 5},
		{"duplicate", "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2.1\"\n}\nprovider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2.1\"\n}\n", "Duplicate provider lock", 4},
		{"unknown argument", "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2.1\"\n  color = \"red\"\n}\n", "Unsupported argument", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := Parse([]byte(tc.src), "locks.hcl")
			if !ds.HasErrors() {
				t.Fatal("no error")
			}
			diag := ds[0]
			if tc.summary != "" && diag.Summary != tc.summary {
				t.Errorf("summary %q, want %q (%s)", diag.Summary, tc.summary, diag.Detail)
			}
			if diag.Subject == nil || diag.Subject.Filename != "locks.hcl" || diag.Subject.Start.Line != tc.line {
				t.Errorf("subject %v, want locks.hcl line %d", diag.Subject, tc.line)
			}
		})
	}
}

func TestParseWarnsAboutModuleBlocks(t *testing.T) {
	_, ds := Parse([]byte("module \"x\" {\n}\nmodule \"y\" {\n}\n"), FileName)
	if ds.HasErrors() || len(ds) != 1 || !strings.Contains(ds[0].Summary, "Module locks") {
		t.Errorf("want one warning, got %v", ds)
	}
}
