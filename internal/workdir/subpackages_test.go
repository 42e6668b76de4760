package workdir

import (
	"context"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// TestProviderFactoriesLaunchSubpackage installs tpulumi and locks the
// sub-package widgets made from it: the factory replays the recorded
// parameterization, so the provider's schema is the sub-package's.
func TestProviderFactoriesLaunchSubpackage(t *testing.T) {
	dir := t.TempDir()
	base, version, hash := installTpulumi(t, dir)
	widgets := addrs.Provider{Hostname: base.Hostname, Namespace: base.Namespace, Type: "widgets"}
	record := &depsfile.Parameterization{Base: base, Args: []string{"widgets"}, Name: "widgets", Version: "1.0.0", Value: []byte("widgets")}
	locks := depsfile.NewLocks()
	locks.SetProviderLock(depsfile.NewProviderLock(widgets, version, nil, []discovery.Hash{hash}).WithParameterization(record))

	factories, ds := ProviderFactories(context.Background(), dir, locks, nil, nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	p, err := factories[widgets](context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	schema := p.GetProviderSchema(context.Background())
	if schema.Diagnostics.HasErrors() {
		t.Fatal(schema.Diagnostics.Err())
	}
	if _, ok := schema.ResourceTypes["widgets_gadget"]; !ok {
		t.Errorf("the sub-package's schema has no widgets_gadget")
	}
	if _, ok := schema.ResourceTypes["tpulumi_thing"]; ok {
		t.Errorf("the sub-package's schema is the base package's")
	}

	// A recorded value the provider rejects fails the launch, naming it.
	locks.SetProviderLock(locks.Provider(widgets).WithParameterization(&depsfile.Parameterization{
		Base: base, Args: []string{"widgets"}, Name: "widgets", Version: "1.0.0", Value: []byte("gizmos")}))
	factories, _ = ProviderFactories(context.Background(), dir, locks, nil, nil)
	if _, err := factories[widgets](context.Background()); err == nil || !strings.Contains(err.Error(), "widgets") {
		t.Errorf("a rejected recorded value launched: %v", err)
	}
}

func TestLaunchSubpackageRefusesOtherProtocols(t *testing.T) {
	mirror := providertest.Build(t)
	tpf := addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "terrane", Type: "tpf"}
	_, err := LaunchSubpackage(context.Background(), tpf, tpf, mirror.Executable("tpf"), nil)
	if err == nil || !strings.Contains(err.Error(), "not a Pulumi provider") || !strings.Contains(err.Error(), "Remove parameters") {
		t.Errorf("a Terraform-protocol provider was launched as a sub-package: %v", err)
	}
}

func TestCheckSubpackageLocks(t *testing.T) {
	cfg := loadTestConfig(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    widgets = { source = "pulumi/tpulumi", parameters = ["widgets"] }
  }
}
module "child" {
  source = "./child"
}
`, "child/main.tf": `
terraform {
  required_providers {
    widgets = { source = "pulumi/tpulumi", parameters = ["widgets"] }
  }
}
`})
	subpackages, ds := Subpackages(cfg)
	if ds.HasErrors() || len(subpackages) != 1 {
		t.Fatalf("subpackages %v, %v", subpackages, ds)
	}
	widgets := addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "pulumi", Type: "widgets"}
	base := addrs.Provider{Hostname: addrs.DefaultProviderRegistryHost, Namespace: "pulumi", Type: "tpulumi"}
	lock := depsfile.NewProviderLock(widgets, versions.MustParseVersion("0.1.0"), nil, nil)
	for name, tc := range map[string]struct {
		record *depsfile.Parameterization
		want   string
	}{
		"matching":     {&depsfile.Parameterization{Base: base, Args: []string{"widgets"}, Name: "widgets"}, ""},
		"other args":   {&depsfile.Parameterization{Base: base, Args: []string{"gizmos"}, Name: "widgets"}, `now asks for pulumi/tpulumi with parameters ["widgets"]`},
		"not recorded": {nil, "as an ordinary provider"},
	} {
		locks := depsfile.NewLocks()
		locks.SetProviderLock(lock.WithParameterization(tc.record))
		got := CheckSubpackageLocks(subpackages, locks)
		if tc.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: %v", name, got)
			}
			continue
		}
		if text := got.Err(); text == nil || !strings.Contains(text.Error(), tc.want) || !strings.Contains(text.Error(), "terrane init -upgrade") {
			t.Errorf("%s: got %v, want %q and the advice to run terrane init -upgrade", name, text, tc.want)
		}
	}
}

func TestSubpackagesConflict(t *testing.T) {
	cfg := loadTestConfig(t, map[string]string{"main.tf": `
terraform {
  required_providers {
    widgets = { source = "pulumi/tpulumi", parameters = ["widgets"] }
  }
}
module "child" {
  source = "./child"
}
`, "child/main.tf": `
terraform {
  required_providers {
    widgets = { source = "pulumi/tpulumi", parameters = ["widgets", "v2"] }
  }
}
`})
	if _, ds := Subpackages(cfg); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Conflicting sub-package requirements") {
		t.Errorf("conflicting declarations accepted: %v", ds)
	}
}
