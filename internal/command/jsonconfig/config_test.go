package jsonconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/terrane/terrane/internal/command/jsonstate/schematest"
	"github.com/terrane/terrane/internal/config"
)

// TestMatchesTerraform renders configurations terraform 1.11 planned and
// compares the result with the "configuration" section terraform's own
// "show -json" printed for the plan (testdata/NAME/configuration.json).
// withoutOpenTofuVariableFields removes from a configuration document the
// variables' "type" and "required", which OpenTofu 1.11 added
// (opentofu/opentofu#3013) and Terraform does not write; TestVariableTypes
// checks them.
func withoutOpenTofuVariableFields(doc any) {
	switch v := doc.(type) {
	case map[string]any:
		if vars, ok := v["variables"].(map[string]any); ok {
			for _, variable := range vars {
				delete(variable.(map[string]any), "type")
				delete(variable.(map[string]any), "required")
			}
		}
		for _, child := range v {
			withoutOpenTofuVariableFields(child)
		}
	case []any:
		for _, child := range v {
			withoutOpenTofuVariableFields(child)
		}
	}
}

// TestVariableTypes describes variables as OpenTofu's jsonconfig does
// (marshalModule): "type" is the type constraint in cty's JSON, optional
// attributes listed after the attribute types, left out for "any";
// "required" is true when there is no default.
func TestVariableTypes(t *testing.T) {
	dir := t.TempDir()
	src := `
variable "untyped" {}
variable "str" {
  type    = string
  default = "x"
}
variable "obj" {
  type = object({ a = string, b = optional(number, 3) })
}
variable "nullable_default" {
  type    = list(string)
  default = null
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.LoadConfigDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got, err := json.Marshal(New(cfg, nil).RootModule.Variables)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"nullable_default":{"type":["list","string"],"default":null},` +
		`"obj":{"type":["object",{"a":"string","b":"number"},["b"]],"required":true},` +
		`"str":{"type":"string","default":"x"},` +
		`"untyped":{"required":true}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestMatchesTerraform(t *testing.T) {
	schemas, err := schematest.Load("../jsonstate/testdata/terraform-provider-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"basic", "planfixture"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", name)
			cfg, diags := config.LoadConfigDir(dir)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got, err := json.Marshal(New(cfg, schemas))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "configuration.json"))
			if err != nil {
				t.Fatal(err)
			}
			var gotDoc, wantDoc any
			if err := json.Unmarshal(got, &gotDoc); err != nil {
				t.Fatal(err)
			}
			withoutOpenTofuVariableFields(gotDoc)
			if err := json.Unmarshal(want, &wantDoc); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gotDoc, wantDoc) {
				indented, _ := json.MarshalIndent(gotDoc, "", "  ")
				t.Errorf("differs from terraform's\ngot:\n%s\nwant:\n%s", indented, want)
			}
			var parsed tfjson.Config
			if err := json.Unmarshal(got, &parsed); err != nil {
				t.Errorf("terraform-json cannot read the output: %s", err)
			}
		})
	}
}
