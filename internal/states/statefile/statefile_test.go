package statefile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
)

// corpus lists the state files written by terraform v1.11.4 (see
// testdata/configs/README.md for how each was made).
func corpus(t *testing.T) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("testdata/*.tfstate")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus files in testdata: %v", err)
	}
	files := map[string][]byte{}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(path)] = src
	}
	return files
}

func TestCorpusRoundTripsToAnEqualDocument(t *testing.T) {
	for name, src := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			file, err := Read(bytes.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := Write(file, &out); err != nil {
				t.Fatal(err)
			}
			AssertSameJSON(t, src, out.Bytes())
		})
	}
}

// AssertSameJSON fails unless want and got are equal JSON documents.
func AssertSameJSON(t *testing.T, want, got []byte) {
	t.Helper()
	var wantDoc, gotDoc any
	if err := json.Unmarshal(want, &wantDoc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &gotDoc); err != nil {
		t.Fatalf("written document is not JSON: %v", err)
	}
	if !reflect.DeepEqual(wantDoc, gotDoc) {
		t.Fatalf("documents differ\nwant:\n%s\ngot:\n%s", want, got)
	}
}

func TestReadModelsWhatTerraformWrote(t *testing.T) {
	files := corpus(t)
	basic, err := Read(bytes.NewReader(files["basic.tfstate"]))
	if err != nil {
		t.Fatal(err)
	}
	state := basic.State
	if basic.Lineage == "" || basic.Serial == 0 || basic.TerraformVersion != "1.11.4" {
		t.Errorf("metadata: %+v", basic)
	}
	each := state.ResourceInstance(mustInstance(t, `terraform_data.each["b c"]`))
	if each == nil || !each.Current.CreateBeforeDestroy || len(each.Current.Dependencies) != 1 ||
		each.Current.Dependencies[0].String() != "terraform_data.single" {
		t.Errorf("for_each instance: %+v", each)
	}
	if state.ResourceInstance(mustInstance(t, `module.child["two"].terraform_data.dependent`)) == nil {
		t.Error("instance in a for_each module is missing")
	}
	if data := state.ResourceInstance(mustInstance(t, "data.terraform_remote_state.other")); data == nil {
		t.Error("data resource instance is missing")
	}
	secretive := state.ResourceInstance(mustInstance(t, "terraform_data.secretive")).Current
	wantPaths := []cty.Path{
		cty.GetAttrPath("input").GetAttr("private"),
		cty.GetAttrPath("input").GetAttr("list").Index(cty.NumberIntVal(1)),
	}
	if len(secretive.SensitivePaths) != 2 || !secretive.SensitivePaths[0].Equals(wantPaths[0]) || !secretive.SensitivePaths[1].Equals(wantPaths[1]) {
		t.Errorf("sensitive paths: %#v", secretive.SensitivePaths)
	}
	if out := state.Outputs["secret_out"]; out == nil || !out.Sensitive || out.Value.AsString() != "hunter2" {
		t.Errorf("sensitive output: %#v", out)
	}
	if len(state.CheckResultsJSON) == 0 {
		t.Error("check results were dropped")
	}

	deposed, err := Read(bytes.NewReader(files["deposed.tfstate"]))
	if err != nil {
		t.Fatal(err)
	}
	sticky := deposed.State.ResourceInstance(mustInstance(t, "terraform_data.sticky[1]"))
	if sticky.Current.Status != states.ObjectTainted || len(sticky.Deposed) != 1 {
		t.Errorf("want a tainted current object and one deposed object, got %+v", sticky)
	}
}

func TestDecodedObjectCarriesSensitiveMarks(t *testing.T) {
	file, err := Read(bytes.NewReader(corpus(t)["basic.tfstate"]))
	if err != nil {
		t.Fatal(err)
	}
	src := file.State.ResourceInstance(mustInstance(t, "terraform_data.secretive")).Current
	// terraform_data's schema: input, output and triggers_replace are
	// dynamically typed, so their JSON carries its own type.
	ty := cty.Object(map[string]cty.Type{"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType})
	obj, err := src.Decode(ty, cty.NilType)
	if err != nil {
		t.Fatal(err)
	}
	input := obj.Value.GetAttr("input")
	if !input.GetAttr("private").IsMarked() || input.GetAttr("public").IsMarked() {
		t.Errorf("marks: private %v, public %v", input.GetAttr("private").IsMarked(), input.GetAttr("public").IsMarked())
	}
	reencoded, err := obj.Encode(ty, src.SchemaVersion)
	if err != nil {
		t.Fatal(err)
	}
	if len(reencoded.SensitivePaths) != 2 {
		t.Errorf("re-encoding kept %d sensitive paths, want 2", len(reencoded.SensitivePaths))
	}
	AssertSameJSON(t, src.AttrsJSON, reencoded.AttrsJSON)
}

func mustInstance(t *testing.T, str string) addrs.AbsResourceInstance {
	t.Helper()
	addr, diags := addrs.ParseAbsResourceInstanceStr(str)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return addr
}

func TestReadRejects(t *testing.T) {
	tests := []struct {
		name, src, wantErr string
	}{
		{"version 3", `{"version":3,"serial":1,"modules":[]}`, "upgrade it with terraform 1.x first"},
		{"version 1", `{"version":1}`, "upgrade it with terraform 1.x first"},
		{"version 5", `{"version":5}`, "may have been created by a newer version"},
		{"no version", `{"serial":1}`, `does not have a "version" attribute`},
		{"not JSON", `resources = []`, "could not be parsed as JSON: syntax error at byte offset 1"},
		{"bad mode", `{"version":4,"resources":[{"mode":"other","type":"t","name":"n","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[]}]}`, `unknown mode "other"`},
		{"legacy provider", `{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","provider":"provider.null","instances":[]}]}`, "legacy provider addresses"},
		{"bad status", instanceDoc(`{"schema_version":0,"attributes":{},"status":"broken"}`), `resource instance t.n: unknown status "broken"`},
		{"float key", instanceDoc(`{"index_key":1.5,"schema_version":0,"attributes":{}}`), "invalid index_key 1.5"},
		{"bad deposed key", instanceDoc(`{"deposed":"xyz","schema_version":0,"attributes":{}}`), `deposed key "xyz"`},
		{"duplicate", instanceDoc(`{"schema_version":0,"attributes":{}},{"schema_version":0,"attributes":{}}`), "appears more than once"},
		{"bad path step", instanceDoc(`{"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"splat","value":1}]]}`), `unknown path step type "splat"`},
		{"bad output", `{"version":4,"outputs":{"o":{"value":"x","type":"number"}}}`, `output "o": the value does not match its type number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func instanceDoc(instances string) string {
	return `{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[` + instances + `]}]}`
}

// The identity schema version is written with an identity and never
// alone, as OpenTofu writes it, whatever version wrote the file read.
func TestIdentitySchemaVersionGoesWithIdentity(t *testing.T) {
	doc := func(orphanVersion string) string {
		return `{"version":4,"terraform_version":"1.12.0","serial":2,"lineage":"l","outputs":{},"resources":[` +
			`{"mode":"managed","type":"t","name":"n","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[` +
			`{"schema_version":1,"attributes":{"id":"a"},"sensitive_attributes":[],"identity_schema_version":2,"identity":{"id":"a"},"private":"cHJpdmF0ZQ=="},` +
			`{"index_key":null,"deposed":"0000abcd","schema_version":1,"attributes":{"id":"b"},"sensitive_attributes":[]` + orphanVersion + `}` +
			`]}],"check_results":null}`
	}
	src := doc(`,"identity_schema_version":3`)
	file, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	obj := file.State.ResourceInstance(mustInstance(t, "t.n")).Current
	if string(obj.Private) != "private" || obj.IdentitySchemaVersion != 2 || string(obj.IdentityJSON) != `{"id":"a"}` {
		t.Errorf("object: %+v", obj)
	}
	var out bytes.Buffer
	if err := Write(file, &out); err != nil {
		t.Fatal(err)
	}
	AssertSameJSON(t, []byte(strings.Replace(doc(""), `"index_key":null,`, "", 1)), out.Bytes())
}
