package jsonstate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/terrane/terrane/internal/command/jsonstate/schematest"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states/statefile"
)

func terraformSchemas(t *testing.T) *providers.Schemas {
	t.Helper()
	schemas, err := schematest.Load("testdata/terraform-provider-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return schemas
}

func readStateFile(t *testing.T, path string) *statefile.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := statefile.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return file
}

// decodeJSON decodes raw into plain Go values, so that two documents
// compare equal whatever their key order and spacing.
func decodeJSON(t *testing.T, raw []byte) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("invalid JSON: %s\n%s", err, raw)
	}
	return out
}

// TestMatchesTerraformShow renders the state files terraform 1.11 wrote
// (testdata/NAME.tfstate) and compares the result with what "terraform
// show -json" printed for them (testdata/NAME.show.json).
func TestMatchesTerraformShow(t *testing.T) {
	schemas := terraformSchemas(t)
	for _, name := range []string{"basic", "tainted", "deposed", "empty"} {
		t.Run(name, func(t *testing.T) {
			file := readStateFile(t, filepath.Join("testdata", name+".tfstate"))
			got, err := Marshal(file.State, schemas, file.TerraformVersion)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", name+".show.json"))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := decodeJSON(t, got), decodeJSON(t, want); !reflect.DeepEqual(g, w) {
				gotIndented, _ := json.MarshalIndent(g, "", "  ")
				t.Errorf("differs from terraform show -json\ngot:\n%s\nwant:\n%s", gotIndented, want)
			}
			var parsed tfjson.State
			if err := json.Unmarshal(got, &parsed); err != nil {
				t.Fatalf("terraform-json cannot read the output: %s", err)
			}
			if err := parsed.Validate(); err != nil {
				t.Errorf("terraform-json rejects the output: %s", err)
			}
		})
	}
}
