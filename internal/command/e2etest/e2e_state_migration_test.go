package e2etest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestStateMigrationRoundTrip moves a project Terraform applied onto
// Terrane and back: its state file is pushed, a plan of the same
// configuration finds nothing to do, and pulling gives back the same
// instances, values and outputs under the same lineage.
func TestStateMigrationRoundTrip(t *testing.T) {
	t.Parallel()
	configDir := filepath.Join(stateCorpusDir, "configs", "basic")
	p := newStateProject(t)
	copyConfigWithoutRemoteState(t, configDir, p.dir)
	p.mustRun("init", "-no-color")

	source := corpusState(t, "basic.tfstate")
	p.mustRun("state", "push", source)
	// The configuration's terraform_remote_state data source is left out
	// (the copy has none); a data source's state is re-read on every plan,
	// so dropping it loses nothing.
	p.mustRun("state", "rm", "data.terraform_remote_state.other")

	out, errOut, code := p.runWithInput("", "plan", "-no-color", "-detailed-exitcode")
	if code != 0 {
		t.Fatalf("plan after migration: exit %d, want 0 (no changes)\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	clitest.AssertContains(t, "plan", out, "No changes.")

	src, err := os.ReadFile(source)
	if err != nil {
		t.Fatal(err)
	}
	want := readStateFile(t, src)
	wantState := want.State.DeepCopy()
	for _, entry := range wantState.AllResourceInstances() {
		if entry.Addr.String() == "data.terraform_remote_state.other" {
			wantState.RemoveResourceInstance(entry.Addr)
		}
	}
	got := readStateFile(t, []byte(p.mustRun("state", "pull")))
	if got.Lineage != want.Lineage || got.Serial <= want.Serial {
		t.Errorf("lineage %q serial %d; want lineage %q and a serial above %d", got.Lineage, got.Serial, want.Lineage, want.Serial)
	}
	assertSameInstances(t, wantState, got.State)
	if len(got.State.Outputs) != len(want.State.Outputs) {
		t.Errorf("outputs %v, want %v", got.State.Outputs, want.State.Outputs)
	}
}

// TestStatePullKeepsPrivateIdentityAndDependencies round-trips what the
// Terraform corpus lacks: provider private data, resource identities and
// registry provider addresses as written.
func TestStatePullKeepsPrivateIdentityAndDependencies(t *testing.T) {
	t.Parallel()
	p := newStateProject(t)
	doc := `{
  "version": 4, "terraform_version": "1.12.0", "serial": 7, "lineage": "9b1e7f3c-0000-4a4a-8d8d-000000000001",
  "outputs": {"token": {"value": "s3cret", "type": "string", "sensitive": true}},
  "resources": [
    {"mode": "managed", "type": "aws_instance", "name": "web", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"].west",
     "instances": [{"index_key": "blue", "schema_version": 1,
       "attributes": {"id": "i-123", "password": "hunter2", "tags": {"env": "prod"}},
       "sensitive_attributes": [[{"type": "get_attr", "value": "password"}]],
       "identity_schema_version": 2, "identity": {"id": "i-123", "region": "eu-west-1"},
       "private": "eyJzY2hlbWFfdmVyc2lvbiI6IjEifQ==",
       "dependencies": ["aws_vpc.main"], "create_before_destroy": true}]},
    {"mode": "managed", "type": "aws_vpc", "name": "main", "provider": "provider[\"registry.terraform.io/hashicorp/aws\"].west",
     "instances": [{"schema_version": 0, "attributes": {"id": "vpc-1"}, "sensitive_attributes": []}]}
  ],
  "check_results": null
}`
	path := filepath.Join(p.dir, "terraform.tfstate")
	clitest.WriteFile(t, path, doc)
	p.mustRun("state", "push", path)
	pulled := p.mustRun("state", "pull")
	assertSameInstances(t, readStateFile(t, []byte(doc)).State, readStateFile(t, []byte(pulled)).State)

	var raw struct {
		Resources []struct {
			Provider  string `json:"provider"`
			Instances []map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(pulled), &raw); err != nil {
		t.Fatal(err)
	}
	web := raw.Resources[0]
	if web.Provider != `provider["registry.terraform.io/hashicorp/aws"].west` {
		t.Errorf("provider written as %s", web.Provider)
	}
	for _, field := range []string{"identity", "identity_schema_version", "private", "dependencies", "create_before_destroy", "sensitive_attributes"} {
		if _, ok := web.Instances[0][field]; !ok {
			t.Errorf("pulled instance lost %q:\n%s", field, pulled)
		}
	}
	if !strings.Contains(pulled, `"private":"eyJzY2hlbWFfdmVyc2lvbiI6IjEifQ=="`) {
		t.Errorf("private data changed:\n%s", pulled)
	}
}

// copyConfigWithoutRemoteState copies the corpus configuration, leaving out
// its terraform_remote_state data source.
func copyConfigWithoutRemoteState(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, entry os.DirEntry, err error) error {
		if err != nil || entry.IsDir() || !strings.HasSuffix(path, ".tf") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(src)
		if start := strings.Index(text, `data "terraform_remote_state"`); start >= 0 {
			end := start + strings.Index(text[start:], "\n}\n") + 3
			text = text[:start] + text[end:]
		}
		rel, _ := filepath.Rel(from, path)
		clitest.WriteFile(t, filepath.Join(to, rel), text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
