package workdir

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

func loadTestConfig(t *testing.T, files map[string]string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		writeTestFile(t, path, content)
	}
	cfg, ds := config.NewParser().LoadConfig(dir)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return cfg
}

func TestProviderRequirements(t *testing.T) {
	cfg := loadTestConfig(t, map[string]string{
		"main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
provider "google" {
  version = ">= 4.0"
}
resource "null_resource" "n" {}
data "http" "h" {}
resource "terraform_data" "d" {}
module "child" {
  source = "./child"
}
`,
		"child/main.tf": `
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "!= 5.3.1" }
  }
}
`,
	})
	requirements, ds := ProviderRequirements(cfg)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := map[string]string{
		"registry.opentofu.org/hashicorp/aws":    "~> 5.0, != 5.3.1",
		"registry.opentofu.org/hashicorp/google": ">= 4.0.0",
		"registry.opentofu.org/hashicorp/null":   "",
		"registry.opentofu.org/hashicorp/http":   "",
	}
	if len(requirements) != len(want) {
		t.Errorf("got %d providers, want %d: %v", len(requirements), len(want), requirements)
	}
	for provider, constraints := range requirements {
		text, ok := want[provider.String()]
		if !ok {
			t.Errorf("unexpected provider %s", provider)
			continue
		}
		if got := depsfile.ConstraintsString(constraints); got != text {
			t.Errorf("%s: constraints %q, want %q", provider, got, text)
		}
	}
}

func TestCheckLocks(t *testing.T) {
	aws := addrs.NewDefaultProvider("aws")
	null := addrs.NewDefaultProvider("null")
	local := addrs.NewDefaultProvider("local")
	fiveOnly, _ := discovery.ParseConstraints("~> 5.0")
	requirements := map[addrs.Provider]discovery.Constraints{aws: fiveOnly, null: nil, local: nil}
	locks := depsfile.NewLocks()
	locks.SetProvider(aws, versions.MustParseVersion("4.67.0"), nil, nil)
	overrides := discovery.DevOverrides{local: "/somewhere"}

	ds := CheckLocks(requirements, locks, overrides)
	if len(ds) != 1 {
		t.Fatalf("want one error naming aws's version and null's missing lock, got %v", ds)
	}
	text := ds.Err().Error()
	if strings.Contains(text, "hashicorp/local") {
		t.Errorf("the error names the overridden provider:\n%s", text)
	}
	for _, want := range []string{"4.67.0", "~> 5.0", "hashicorp/null", "terrane init"} {
		if !strings.Contains(text, want) {
			t.Errorf("errors do not mention %q:\n%s", want, text)
		}
	}
	locks.SetProvider(aws, versions.MustParseVersion("5.1.0"), fiveOnly, nil)
	locks.SetProvider(null, versions.MustParseVersion("3.2.1"), nil, nil)
	if ds := CheckLocks(requirements, locks, overrides); len(ds) != 0 {
		t.Errorf("consistent locks reported: %v", ds)
	}
}
