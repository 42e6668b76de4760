package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func loadRequirements(t *testing.T, body string) (*Module, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("terraform {\n  required_providers {\n"+body+"\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	module, ds := NewParser().LoadModule(dir)
	if !ds.HasErrors() {
		return module, ""
	}
	return module, ds.Error()
}

func TestRequiredProviderParametersMakeSubpackageAddress(t *testing.T) {
	module, errs := loadRequirements(t, `    widgets = { source = "pulumi/tpulumi", version = "~> 0.1", parameters = ["widgets"] }
    tpulumi = { source = "pulumi/tpulumi" }`)
	if errs != "" {
		t.Fatal(errs)
	}
	widgets := module.RequiredProviders["widgets"]
	if got := widgets.Type.String(); got != "registry.opentofu.org/pulumi/widgets" {
		t.Errorf("sub-package address %s, want registry.opentofu.org/pulumi/widgets", got)
	}
	if got := widgets.Base.String(); got != "registry.opentofu.org/pulumi/tpulumi" {
		t.Errorf("base %s, want registry.opentofu.org/pulumi/tpulumi", got)
	}
	if !slices.Equal(widgets.Parameters, []string{"widgets"}) {
		t.Errorf("parameters %q", widgets.Parameters)
	}
	if plain := module.RequiredProviders["tpulumi"]; plain.Parameters != nil || !plain.Base.IsZero() || plain.Type == widgets.Type {
		t.Errorf("the plain requirement changed: %+v", plain)
	}
}

func TestRequiredProviderParametersInvalid(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`    widgets = { parameters = ["widgets"] }`, "Parameters need a provider source"},
		{`    tpulumi = { source = "pulumi/tpulumi", parameters = ["x"] }`, "Sub-package named like its provider"},
		{`    widgets = { source = "pulumi/tpulumi", parameters = [] }`, "Invalid provider parameters"},
		{`    widgets = { source = "pulumi/tpulumi", parameters = "widgets" }`, "Invalid provider parameters"},
		{`    widgets = { source = "pulumi/tpulumi", parameters = [{ a = 1 }] }`, "Invalid provider parameters"},
		{`    widgets = { source = "pulumi/tpulumi", parameters = [var.x] }`, "Variables not allowed"},
	} {
		_, errs := loadRequirements(t, tc.body)
		if !strings.Contains(errs, tc.want) || !strings.Contains(errs, "main.tf:3") {
			t.Errorf("%s:\n got %q\n want %q at main.tf:3", tc.body, errs, tc.want)
		}
	}
}
