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
