package jsonplan

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/terrane/terrane/internal/command/jsonstate/schematest"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/plans/planfile"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states/statefile"
)

const terraformFixture = "testdata/terraform-1.11"

func terraformSchemas(t *testing.T) *providers.Schemas {
	t.Helper()
	schemas, err := schematest.Load("../jsonstate/testdata/terraform-provider-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return schemas
}

// readTerraformPlan reads the plan terraform 1.11 wrote over main.tf, with
// the prior state it carries and the configuration.
func readTerraformPlan(t *testing.T) Input {
	t.Helper()
	reader, err := planfile.Open(filepath.Join(terraformFixture, "tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	plan, err := reader.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	prior, _, found, err := reader.ReadTerraformState()
	if err != nil || !found {
		t.Fatalf("prior state: found %t, %v", found, err)
	}
	priorFile, err := statefile.Read(bytes.NewReader(prior))
	if err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.LoadConfigDir(terraformFixture)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return Input{Plan: plan, Config: cfg, PriorState: priorFile.State, Schemas: terraformSchemas(t), EngineVersion: "1.11.4"}
}

func decodeJSON(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("invalid JSON: %s\n%s", err, raw)
	}
	return out
}

// asOpenTofu turns terraform show -json of the fixture into what OpenTofu
// 1.12 prints for the same plan, where the two differ: OpenTofu's plan has
// no "applyable" or "complete" (internal/command/jsonplan/plan.go, Plan),
// and its configuration gives each variable's "type" and, with no default,
// "required" (opentofu/opentofu#3013). Both of the fixture's variables are
// strings with defaults.
func asOpenTofu(doc map[string]any) map[string]any {
	delete(doc, "applyable")
	delete(doc, "complete")
	variables := doc["configuration"].(map[string]any)["root_module"].(map[string]any)["variables"].(map[string]any)
	for _, name := range []string{"name", "secret"} {
		variables[name].(map[string]any)["type"] = "string"
	}
	return doc
}

// TestMatchesTerraformShow compares the rendering of terraform's own plan
// file with what "terraform show -json" printed for it, section by section,
// where OpenTofu prints the same.
func TestMatchesTerraformShow(t *testing.T) {
	got, err := Marshal(readTerraformPlan(t))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(terraformFixture, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	gotDoc, wantDoc := decodeJSON(t, got), asOpenTofu(decodeJSON(t, want))
	for section := range wantDoc {
		if !reflect.DeepEqual(gotDoc[section], wantDoc[section]) {
			g, _ := json.MarshalIndent(gotDoc[section], "", "  ")
			w, _ := json.MarshalIndent(wantDoc[section], "", "  ")
			t.Errorf("%s differs from terraform show -json\ngot:\n%s\nwant:\n%s", section, g, w)
		}
	}
	for section := range gotDoc {
		if _, ok := wantDoc[section]; !ok {
			t.Errorf("section %s is not in terraform's output", section)
		}
	}
	var parsed tfjson.Plan
	if err := json.Unmarshal(got, &parsed); err != nil {
		t.Fatalf("terraform-json cannot read the output: %s", err)
	}
	if err := parsed.Validate(); err != nil {
		t.Errorf("terraform-json rejects the output: %s", err)
	}
}
