package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// TestInvalidConfigurations loads each directory under testdata/invalid and
// checks that it fails with the expected diagnostic at the expected place.
func TestInvalidConfigurations(t *testing.T) {
	tests := []struct {
		dir, summary, at string
	}{
		{"bad-default", "Invalid default value for variable", "main.tf:3:13"},
		{"bad-depends-on", "Invalid depends_on reference", "main.tf:4:32"},
		{"bad-provider-source", "Invalid provider type", "main.tf:4:16"},
		{"check-assert-no-refs", "Invalid assert expression", "main.tf:3:21"},
		{"check-without-assert", "Zero assert blocks", "main.tf:1:1"},
		{"check-nested-count", "Invalid \"count\" attribute", "main.tf:3:5"},
		{"count-and-for-each", "Invalid combination of \"count\" and \"for_each\"", "main.tf:2:3"},
		{"count-outside-count", "Reference to \"count\" in non-counted context", "main.tf:3:9"},
		{"duplicate-data", "Duplicate data \"http\" configuration", "main.tf:2:1"},
		{"duplicate-local", "Duplicate local value definition", "main.tf:3:3"},
		{"duplicate-module", "Duplicate module call", "main.tf:2:1"},
		{"duplicate-output", "Duplicate output definition", "main.tf:2:1"},
		{"duplicate-passed-provider", "Duplicate provider address", "main.tf:11:12"},
		{"override-moved", "Cannot override 'moved' blocks", "main_override.tf:1:1"},
		{"duplicate-provider", "Duplicate provider configuration", "main.tf:2:1"},
		{"duplicate-provider-alias", "Duplicate provider configuration", "main.tf:2:1"},
		{"duplicate-resource", "Duplicate resource \"null_resource\" configuration", "main.tf:3:1"},
		{"duplicate-variable", "Duplicate variable declaration", "main.tf:2:1"},
		{"each-outside-for-each", "Reference to \"each\" in context without for_each", "main.tf:2:11"},
		{"experiments", "Unknown experiment keyword", "main.tf:2:18"},
		{"invalid-count-attr", "Invalid \"count\" attribute", "main.tf:4:9"},
		{"invalid-resource-name", "Invalid resource name", "main.tf:1:26"},
		{"invalid-variable-name", "Invalid variable name", "main.tf:1:10"},
		{"missing-override-base", "Missing base resource to override", "main_override.tf:1:1"},
		{"module-cycle", "Module call cycle", "main.tf:2:12"},
		{"moved-module-to-resource", "Invalid \"moved\" addresses", "main.tf:1:1"},
		{"provider-missing-alias", "Missing required provider configuration", "main.tf:1:1"},
		{"provider-for-each-without-alias", "Invalid for_each argument", "main.tf:2:3"},
		{"precondition-without-references", "Invalid precondition expression", "main.tf:4:23"},
		{"provisioner", "Provisioners are not supported", "main.tf:2:3"},
		{"quoted-type", "Invalid quoted type constraints", "main.tf:2:10"},
		{"registry-module", "Module not installed", "main.tf:2:13"},
		{"required-version", "Incompatible module", "main.tofu:2:3"},
		{"removed-instance-key", "Resource instance address with keys is not allowed", "main.tf:2:26"},
		{"reserved-block", "Reserved block type name in resource block", "main.tf:2:3"},
		{"self-outside-postcondition", "Invalid \"self\" reference", "main.tf:2:11"},
		{"syntax-error", "Missing expression", "main.tf:3:1"},
		{"undeclared-local", "Reference to undeclared local value", "main.tf:6:11"},
		{"undeclared-module", "Reference to undeclared module", "main.tf:6:11"},
		{"undeclared-resource", "Reference to undeclared resource", "main.tf:2:11"},
		{"undeclared-variable", "Reference to undeclared input variable", "main.tf:4:11"},
		{"unknown-meta-argument", "Unsupported argument", "main.tf:4:5"},
		{"validation-no-refs", "Invalid validation expression", "main.tf:4:21"},
		{"validation-no-self-ref", "Invalid variable validation condition", "main.tf:8:21"},
		{"wildcard-ignore-changes", "Invalid ignore_changes wildcard", "main.tf:3:22"},
	}
	for _, test := range tests {
		t.Run(test.dir, func(t *testing.T) {
			_, diags := loadAndValidateReferences(filepath.Join("testdata", "invalid", test.dir))
			if !diags.HasErrors() {
				t.Fatal("configuration loaded without errors")
			}
			for _, diag := range diags {
				if diag.Summary != test.summary || diag.Subject == nil {
					continue
				}
				at := fmt.Sprintf("%s:%d:%d", filepath.Base(diag.Subject.Filename), diag.Subject.Start.Line, diag.Subject.Start.Column)
				if at == test.at {
					return
				}
				t.Fatalf("%q reported at %s, want %s", test.summary, at, test.at)
			}
			t.Fatalf("no %q diagnostic; got: %s", test.summary, diags.Error())
		})
	}
}

func loadValid(t *testing.T, name string) *Config {
	t.Helper()
	cfg, diags := LoadConfigDir(filepath.Join("testdata", "valid", name))
	if diags.HasErrors() {
		t.Fatalf("unexpected errors: %s", diags.Error())
	}
	return cfg
}

func TestLoadEverything(t *testing.T) {
	cfg := loadValid(t, "everything")
	mod := cfg.Module
	if got := mod.RequiredProviders["aws"].Type.String(); got != "registry.terraform.io/hashicorp/aws" {
		t.Errorf("aws source = %s", got)
	}
	if got := mod.RequiredProviders["null"].Type.String(); got != "registry.opentofu.org/hashicorp/null" {
		t.Errorf("null source = %s", got)
	}
	if mod.Backend == nil || mod.Backend.Type != "s3" {
		t.Errorf("backend not kept: %#v", mod.Backend)
	}
	byRegion := mod.ProviderConfigs[addrs.LocalProviderConfig{LocalName: "aws", Alias: "by_region"}]
	if byRegion == nil || byRegion.ForEach == nil {
		t.Fatal("provider for_each not kept")
	}
	settings := mod.Variables["settings"]
	wantType := cty.Object(map[string]cty.Type{"name": cty.String, "size": cty.Number, "tags": cty.Map(cty.String)})
	if !settings.Type.Type.Equals(cty.ObjectWithOptionalAttrs(wantType.AttributeTypes(), []string{"size", "tags"})) || settings.Type.Defaults == nil {
		t.Errorf("settings type = %#v", settings.Type.Type)
	}
	if len(settings.Validations) != 1 {
		t.Errorf("validations = %d", len(settings.Validations))
	}
	if !mod.Variables["legacy"].Type.Type.Equals(cty.List(cty.DynamicPseudoType)) {
		t.Errorf("legacy list type = %#v", mod.Variables["legacy"].Type.Type)
	}
	secret := mod.Variables["secret"]
	if !secret.Sensitive || secret.Nullable || !secret.Ephemeral {
		t.Errorf("secret flags: %+v", secret)
	}
	counted := mod.Resources[addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "counted"}]
	if counted.Count == nil || !counted.Managed.CreateBeforeDestroy || len(counted.Managed.IgnoreChanges) != 1 ||
		len(counted.Managed.ReplaceTriggeredBy) != 1 || len(counted.Preconditions) != 1 || len(counted.Postconditions) != 1 {
		t.Errorf("counted resource: %+v %+v", counted, counted.Managed)
	}
	web := mod.Resources[addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_instance", Name: "web"}]
	if !web.Managed.IgnoreAllChanges || web.ProviderConfigRef.Alias != "by_region" || web.ProviderConfigRef.KeyExpr == nil || len(web.DependsOn) != 1 {
		t.Errorf("web resource: %+v", web)
	}
	if web.Provider.String() != "registry.terraform.io/hashicorp/aws" {
		t.Errorf("web provider = %s", web.Provider)
	}
	marker := mod.Resources[addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "marker"}]
	if marker.Provider != addrs.TerraformProvider || marker.Enabled == nil {
		t.Errorf("terraform_data provider = %s, enabled = %v", marker.Provider, marker.Enabled)
	}
	net := mod.ModuleCalls["net"]
	if net.ForEach == nil || len(net.Providers) != 1 || net.Providers[0].InParentKey == nil || len(net.DependsOn) != 1 {
		t.Errorf("module call: %+v", net)
	}
	if child := cfg.Descendant(addrs.Module{"net"}); child == nil || child.Module.Outputs["subnet_id"] == nil {
		t.Error("child module not loaded")
	}
	if len(mod.Moved) != 2 || len(mod.Import) != 1 || mod.Import[0].ForEach == nil || len(mod.Removed) != 1 || mod.Removed[0].Destroy {
		t.Errorf("moved/import/removed: %d %d %d", len(mod.Moved), len(mod.Import), len(mod.Removed))
	}
	health := mod.Checks["health"]
	if health == nil || health.DataResource == nil || len(health.Asserts) != 1 {
		t.Errorf("check block: %+v", health)
	}
}

func TestTofuFileShadowsTfFile(t *testing.T) {
	mod := loadValid(t, "tofu-shadow").Module
	if mod.Variables["from_tofu"] == nil || mod.Outputs["o"] == nil {
		t.Fatal("main.tofu and extra.tf should both be loaded")
	}
}

func TestOverrideFiles(t *testing.T) {
	mod := loadValid(t, "override").Module
	size, diags := mod.Variables["size"].Default.Value(nil)
	if diags.HasErrors() || !size.RawEquals(cty.NumberIntVal(5)) {
		t.Errorf("variable default = %#v", size)
	}
	if !mod.Variables["size"].Type.Type.Equals(cty.Number) {
		t.Error("override without type must keep the base type")
	}
	res := mod.Resources[addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "a"}]
	if res.Count != nil || res.ForEach == nil {
		t.Error("for_each in the override must replace count")
	}
	if res.Managed.PreventDestroy == nil || !res.Managed.CreateBeforeDestroy {
		t.Error("lifecycle arguments must merge one by one")
	}
	content, diags := res.Config.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "triggers"}}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	triggers, _ := content.Attributes["triggers"].Expr.Value(nil)
	if !triggers.RawEquals(cty.ObjectVal(map[string]cty.Value{"base": cty.StringVal("override")})) {
		t.Errorf("triggers = %#v; an overriding argument replaces the whole base argument", triggers)
	}
	out, _ := mod.Outputs["o"].Expr.Value(nil)
	if out.AsString() != "override" {
		t.Errorf("output = %s", out.AsString())
	}
	msg, _ := mod.Checks["c"].Asserts[0].ErrorMessage.Value(nil)
	if len(mod.Checks["c"].Asserts) != 1 || msg.AsString() != "override message" {
		t.Errorf("a check block in an override file must replace the base's assertions: %#v", msg)
	}
}

func TestJSONConfiguration(t *testing.T) {
	mod := loadValid(t, "json").Module
	if !mod.Variables["x"].Type.Type.Equals(cty.String) {
		t.Errorf("type from JSON = %#v", mod.Variables["x"].Type.Type)
	}
	res := mod.Resources[addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: "n"}]
	if res == nil || res.Count == nil {
		t.Fatal("JSON resource not loaded")
	}
}

func TestEncryptionBlockOnlyOncePerModule(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"a.tf": "terraform {\n  encryption {}\n}\n",
		"b.tf": "terraform {\n  encryption {}\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mod, diags := NewParser().LoadModule(dir)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Duplicate encryption configuration") {
		t.Fatalf("two encryption blocks: %v", diags)
	}
	if mod.Encryption == nil || mod.Encryption.DeclRange.Filename != filepath.Join(dir, "a.tf") {
		t.Errorf("the first encryption block is not kept: %+v", mod.Encryption)
	}
}
