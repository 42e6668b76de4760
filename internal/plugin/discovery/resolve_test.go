package discovery

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
)

// parseConfig reads a CLI configuration the way a user would write it.
func parseConfig(t *testing.T, src string) *cliconfig.Config {
	t.Helper()
	config, diagnostics := cliconfig.Parse([]byte(src), "test.tfrc")
	if len(diagnostics) > 0 {
		t.Fatalf("CLI configuration: %v", diagnostics)
	}
	return config
}

func mustConstraints(t *testing.T, raw string) Constraints {
	t.Helper()
	spec, err := ParseConstraints(raw)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

func TestResolveFromMirrors(t *testing.T) {
	ctx := context.Background()
	firstMirror, secondMirror, unpackDir := t.TempDir(), t.TempDir(), t.TempDir()
	null := mustProvider(t, "registry.opentofu.org/hashicorp/null")
	random := mustProvider(t, "registry.opentofu.org/hashicorp/random")
	writeUnpacked(t, firstMirror, null, "3.1.0", linuxAMD64)
	writePacked(t, secondMirror, null, "3.2.0", linuxAMD64)
	writePacked(t, secondMirror, random, "3.6.0", linuxAMD64)
	// The first mirror is only for null; its random would be ignored.
	writeUnpacked(t, firstMirror, random, "9.9.9", linuxAMD64)

	config := parseConfig(t, fmt.Sprintf(`
provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["hashicorp/null"]
  }
  filesystem_mirror {
    path = %q
  }
  direct {}
}`, firstMirror, secondMirror))
	resolver := &Resolver{Config: config, Platform: linuxAMD64, UnpackDir: unpackDir}
	resolved, diagnostics := resolver.Resolve(ctx, map[tfaddr.Provider]Constraints{
		null:   mustConstraints(t, "~> 3.0"),
		random: nil,
	})
	if len(diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", diagnostics)
	}
	if got := resolved[null]; got.Version.String() != "3.2.0" || !strings.HasPrefix(got.Dir, unpackDir) {
		t.Errorf("null resolved to %+v, want 3.2.0 (newest across mirrors) unpacked into %s", got, unpackDir)
	}
	if got := resolved[random]; got.Version.String() != "3.6.0" {
		t.Errorf("random resolved to v%s, want 3.6.0 from the second mirror", got.Version)
	}
	for provider, pkg := range resolved {
		if info, err := os.Stat(pkg.Executable); err != nil || info.Mode().Perm()&0o100 == 0 {
			t.Errorf("%s executable %s is not usable: %v", provider, pkg.Executable, err)
		}
	}

	// A second resolve reuses the unpacked package.
	again, diagnostics := resolver.Resolve(ctx, map[tfaddr.Provider]Constraints{null: nil})
	if len(diagnostics) > 0 || again[null].Executable != resolved[null].Executable {
		t.Errorf("second resolve: %+v, %v", again[null], diagnostics)
	}
}

func TestResolvePrefersPluginCache(t *testing.T) {
	mirrorDir, cacheDir := t.TempDir(), t.TempDir()
	null := mustProvider(t, "registry.opentofu.org/hashicorp/null")
	writePacked(t, mirrorDir, null, "3.2.0", linuxAMD64)
	cached := writeUnpacked(t, cacheDir, null, "3.2.0", linuxAMD64)
	config := parseConfig(t, fmt.Sprintf(`
plugin_cache_dir = %q
provider_installation {
  filesystem_mirror { path = %q }
}`, cacheDir, mirrorDir))
	resolved, diagnostics := (&Resolver{Config: config, Platform: linuxAMD64}).Resolve(context.Background(), map[tfaddr.Provider]Constraints{null: nil})
	if len(diagnostics) > 0 {
		t.Fatal(diagnostics)
	}
	if resolved[null].Dir != cached {
		t.Errorf("resolved from %s, want the cached package %s", resolved[null].Dir, cached)
	}
}

func TestResolveDevOverride(t *testing.T) {
	buildDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(buildDir, "terraform-provider-null"), []byte(fakeProviderScript), 0o755); err != nil {
		t.Fatal(err)
	}
	config := parseConfig(t, fmt.Sprintf(`
provider_installation {
  dev_overrides {
    "hashicorp/null" = %q
    "hashicorp/broken" = %q
  }
}`, buildDir, t.TempDir()))
	null := mustProvider(t, "registry.opentofu.org/hashicorp/null")
	broken := mustProvider(t, "registry.opentofu.org/hashicorp/broken")
	resolved, diagnostics := Resolve(context.Background(), config, map[tfaddr.Provider]Constraints{
		null:   mustConstraints(t, "= 99.0.0"), // ignored for an override
		broken: nil,
	})
	if got := resolved[null]; !got.DevOverride || got.Executable != filepath.Join(buildDir, "terraform-provider-null") {
		t.Errorf("null resolved to %+v, want the development build", got)
	}
	if len(diagnostics) != 2 {
		t.Fatalf("diagnostics = %v, want the overrides warning and an error for broken", diagnostics)
	}
	if warning := diagnostics[0]; warning.Severity != diags.Warning || !strings.Contains(warning.Detail, "hashicorp/null in "+buildDir) {
		t.Errorf("first diagnostic = %v, want the overrides warning naming each override", warning)
	}
	if failure := diagnostics[1]; failure.Severity != diags.Error || failure.Address != broken.String() || !strings.Contains(failure.Detail, "no file named terraform-provider-broken") {
		t.Errorf("second diagnostic = %v, want an error about the missing executable", failure)
	}
}

func TestResolveDiagnostics(t *testing.T) {
	mirrorDir := t.TempDir()
	terraformNull := mustProvider(t, "registry.terraform.io/hashicorp/null")
	aws := mustProvider(t, "registry.opentofu.org/hashicorp/aws")
	writePacked(t, mirrorDir, aws, "5.1.0", darwinARM64)
	writePacked(t, mirrorDir, aws, "5.2.0", darwinARM64)
	writeUnpacked(t, mirrorDir, terraformNull, "3.2.0", linuxAMD64)
	config := parseConfig(t, fmt.Sprintf(`
provider_installation {
  filesystem_mirror { path = %q }
  direct {}
}`, mirrorDir))

	tests := []struct {
		name        string
		provider    string
		constraints string
		wantSummary string
		wantDetail  []string
	}{
		{"not found", "registry.opentofu.org/hashicorp/random", "", "Provider not found",
			[]string{"the filesystem mirror " + mirrorDir, "origin registry", "not supported yet"}},
		{"found under the other registry host", "registry.opentofu.org/hashicorp/null", "", "Provider not found",
			[]string{`source = "registry.terraform.io/hashicorp/null"`}},
		{"no matching version", aws.String(), "~> 6.0", "No provider version matches the constraints",
			[]string{"available versions: 5.1.0, 5.2.0"}},
		{"wrong platform", aws.String(), "", "Provider not available for this platform",
			[]string{"v5.2.0 has no package for linux_amd64", "darwin_arm64"}},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			provider := mustProvider(t, test.provider)
			resolved, diagnostics := (&Resolver{Config: config, Platform: linuxAMD64}).Resolve(context.Background(),
				map[tfaddr.Provider]Constraints{provider: mustConstraints(t, test.constraints)})
			if len(resolved) != 0 || len(diagnostics) != 1 {
				t.Fatalf("resolved %v with diagnostics %v, want one error", resolved, diagnostics)
			}
			diag := diagnostics[0]
			if diag.Summary != test.wantSummary || diag.Address != provider.String() {
				t.Errorf("diagnostic = %v", diag)
			}
			for _, want := range test.wantDetail {
				if !strings.Contains(diag.Detail, want) {
					t.Errorf("detail %q lacks %q", diag.Detail, want)
				}
			}
		})
	}
}

func TestImpliedDirectSkipsLocalProviders(t *testing.T) {
	home := t.TempDir()
	localDir := filepath.Join(home, ".terraform.d", "plugins")
	null := mustProvider(t, "registry.opentofu.org/hashicorp/null")
	writeUnpacked(t, localDir, null, "3.2.0", linuxAMD64)
	config, diagnostics := cliconfig.Load(cliconfig.Environment{HomeDir: home, Getenv: func(string) string { return "" }})
	if len(diagnostics) > 0 {
		t.Fatal(diagnostics)
	}
	_, diagnostics = (&Resolver{Config: config, Platform: linuxAMD64}).Resolve(context.Background(),
		map[tfaddr.Provider]Constraints{null: mustConstraints(t, "~> 4.0")})
	// The implied direct method would have been tried for a provider not
	// found locally; for one found locally only the local versions count.
	if len(diagnostics) != 1 || diagnostics[0].Summary != "No provider version matches the constraints" {
		t.Errorf("diagnostics = %v, want only the local versions considered", diagnostics)
	}
}

// TestResolveRealProviderMirror resolves the AWS provider from the machine's
// filesystem mirror, when there is one, and checks the package hash against
// Terraform's.
func TestResolveRealProviderMirror(t *testing.T) {
	const mirrorDir = "/opt/tf-plugins"
	if _, err := os.Stat(mirrorDir); err != nil {
		t.Skip("no filesystem mirror at " + mirrorDir)
	}
	aws := mustProvider(t, "registry.terraform.io/hashicorp/aws")
	config := parseConfig(t, fmt.Sprintf("provider_installation {\n  filesystem_mirror { path = %q }\n}\n", mirrorDir))
	resolved, diagnostics := (&Resolver{Config: config, Platform: linuxAMD64}).Resolve(context.Background(),
		map[tfaddr.Provider]Constraints{aws: mustConstraints(t, "~> 5.0")})
	if len(diagnostics) > 0 {
		t.Fatal(diagnostics)
	}
	pkg := resolved[aws]
	if pkg.Version.String() != "5.100.0" || filepath.Base(pkg.Executable) != "terraform-provider-aws_v5.100.0_x5" {
		t.Fatalf("resolved %+v", pkg)
	}
	if testing.Short() {
		return
	}
	terraform, err := exec.LookPath("terraform")
	if err != nil {
		return
	}
	ours, err := pkg.Hash()
	if err != nil {
		t.Fatal(err)
	}
	theirs := terraformLockHashes(t, terraform, mirrorDir, `
terraform {
  required_providers {
    aws = { source = "registry.terraform.io/hashicorp/aws", version = "~> 5.0" }
  }
}`)[aws.String()]
	if string(ours) != theirs {
		t.Errorf("h1 hash of the AWS package: ours %s, Terraform's %s", ours, theirs)
	}
}
