package planfile

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/proto/tfplan"
)

// writeZip writes a zip archive with the given entries.
func writeZip(t *testing.T, path string, entries map[string][]byte) {
	t.Helper()
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	archive := zip.NewWriter(file)
	for name, content := range entries {
		entry, err := archive.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := entry.Write(content); err != nil {
			t.Fatal(err)
		}
	}
	if err := archive.Close(); err != nil {
		t.Fatal(err)
	}
	if err := file.Close(); err != nil {
		t.Fatal(err)
	}
}

func marshal(t *testing.T, message proto.Message) []byte {
	t.Helper()
	encoded, err := proto.Marshal(message)
	if err != nil {
		t.Fatal(err)
	}
	return encoded
}

func TestOpenRefusesWhatIsNotAPlanFile(t *testing.T) {
	dir := t.TempDir()
	textFile := filepath.Join(dir, "main.tf")
	if err := os.WriteFile(textFile, []byte("resource \"null_resource\" \"a\" {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	otherZip := filepath.Join(dir, "other.zip")
	writeZip(t, otherZip, map[string][]byte{"readme.txt": []byte("hello")})

	valid := filepath.Join(dir, "valid")
	if err := Create(valid, Contents{Plan: &plans.Plan{}}); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(valid)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated")
	if err := os.WriteFile(truncated, whole[:len(whole)*2/3], 0o600); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct{ name, path, wantText string }{
		{"text file", textFile, "not a zip archive, or it was truncated"},
		{"zip without a plan", otherZip, `no "tfplan" entry`},
		{"truncated plan file", truncated, "not a zip archive, or it was truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reader, err := Open(tc.path)
			if err == nil {
				reader.Close()
				t.Fatal("Open accepted it")
			}
			if !errors.Is(err, ErrNotPlanFile) || !strings.Contains(err.Error(), tc.wantText) || !strings.Contains(err.Error(), tc.path) {
				t.Errorf("error %q; want ErrNotPlanFile naming the file and saying %q", err, tc.wantText)
			}
		})
	}
	if _, err := Open(filepath.Join(dir, "absent")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("opening a missing file: %v", err)
	}
}

func TestReadPlanRefusesOtherFormatVersions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tfplan")
	writeZip(t, path, map[string][]byte{"tfplan": marshal(t, &tfplan.Plan{Version: 2, TerraformVersion: "0.15.0"})})
	reader, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	_, err = reader.ReadPlan()
	if !errors.Is(err, ErrUnsupportedVersion) || !strings.Contains(err.Error(), "0.15.0") {
		t.Errorf("error %v; want ErrUnsupportedVersion naming the version that wrote the plan", err)
	}
}

func TestReadPlanRefusesMalformedPlans(t *testing.T) {
	change := func(action tfplan.Action, values int) *tfplan.Plan {
		raw := &tfplan.Plan{Version: tfplanFormatVersion, ResourceChanges: []*tfplan.ResourceInstanceChange{{
			Addr:     "null_resource.a",
			Provider: `provider["registry.opentofu.org/hashicorp/null"]`,
			Change:   &tfplan.Change{Action: action},
		}}}
		for range values {
			raw.ResourceChanges[0].Change.Values = append(raw.ResourceChanges[0].Change.Values, &tfplan.DynamicValue{Msgpack: msgpackNull})
		}
		return raw
	}
	badAddr := change(tfplan.Action_CREATE, 1)
	badAddr.ResourceChanges[0].Addr = "null_resource"
	badProvider := change(tfplan.Action_CREATE, 1)
	badProvider.ResourceChanges[0].Provider = "null"
	badDeposed := change(tfplan.Action_DELETE, 1)
	badDeposed.ResourceChanges[0].DeposedKey = "xyz"
	for _, tc := range []struct {
		name     string
		entry    []byte
		wantText string
	}{
		{"corrupt protobuf", []byte{0xff, 0xff, 0xff}, "the plan is corrupt"},
		{"update with one value", marshal(t, change(tfplan.Action_UPDATE, 1)), "null_resource.a: a update change must have 2 values, but this one has 1"},
		{"unknown action", marshal(t, change(tfplan.Action(42), 1)), "null_resource.a: unsupported action 42"},
		{"bad address", marshal(t, badAddr), `invalid resource instance address "null_resource"`},
		{"bad provider", marshal(t, badProvider), `change to null_resource.a: provider configuration "null"`},
		{"bad deposed key", marshal(t, badDeposed), "change to null_resource.a: deposed key"},
		{"bad timestamp", marshal(t, &tfplan.Plan{Version: tfplanFormatVersion, Timestamp: "yesterday"}), `timestamp "yesterday"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tfplan")
			writeZip(t, path, map[string][]byte{"tfplan": tc.entry})
			reader, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer reader.Close()
			if _, err := reader.ReadPlan(); err == nil || !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %v; want one saying %q", err, tc.wantText)
			}
		})
	}
}

func TestCreateLeavesExistingFileAloneOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tfplan")
	if err := Create(path, Contents{Plan: &plans.Plan{EngineVersion: "first"}}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	invalidChange := encodeChange(t, testChange(t, "null_resource.a", plans.Create, plans.ReasonNone))
	invalidChange.Action = plans.Action('?')
	invalid := &plans.Plan{Changes: plans.Changes{Resources: []*plans.ResourceInstanceChangeSrc{invalidChange}}}
	if err := Create(path, Contents{Plan: invalid}); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Create of an invalid plan: %v; want an error naming the file", err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("a failed Create changed the existing plan file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after a failed Create; temporary files were left behind", len(entries))
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm()&0o077 != 0 {
		t.Errorf("plan file mode %v; plans hold secrets, so only the owner may read them", info.Mode().Perm())
	}
}

func TestCreateIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	plan := &plans.Plan{Applyable: true, TargetAddrs: []string{"a.b"}}
	snapshot := &ConfigSnapshot{Modules: map[string]*SnapshotModule{"": {Dir: ".", Files: map[string][]byte{"a.tf": []byte("x"), "b.tf": []byte("y")}}}}
	first, second := filepath.Join(dir, "one"), filepath.Join(dir, "two")
	for _, path := range []string{first, second} {
		if err := Create(path, Contents{Plan: plan, Config: snapshot}); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := os.ReadFile(first)
	b, _ := os.ReadFile(second)
	if string(a) != string(b) {
		t.Error("the same plan written twice made different files")
	}
}

func TestCreateRefusesIncompleteChanges(t *testing.T) {
	noProvider := encodeChange(t, testChange(t, "null_resource.a", plans.Create, plans.ReasonNone))
	noProvider.ProviderAddr = addrs.AbsProviderConfigInstance{}
	noAddr := encodeChange(t, testChange(t, "null_resource.a", plans.Create, plans.ReasonNone))
	noAddr.Addr = addrs.AbsResourceInstance{}
	for _, tc := range []struct {
		name     string
		change   *plans.ResourceInstanceChangeSrc
		wantText string
	}{
		{"no provider", noProvider, "change to null_resource.a has no provider configuration"},
		{"no address", noAddr, "create change without a resource instance address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := &plans.Plan{Changes: plans.Changes{Resources: []*plans.ResourceInstanceChangeSrc{tc.change}}}
			err := Create(filepath.Join(t.TempDir(), "tfplan"), Contents{Plan: plan})
			if err == nil || !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %v; want one saying %q", err, tc.wantText)
			}
		})
	}
}
