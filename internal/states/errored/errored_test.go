package errored

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

func mustAddr(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	addr, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return addr
}

var testProvider = addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("null")}

func object(id string) *states.ResourceInstance {
	return &states.ResourceInstance{Current: &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `","triggers":null}`), Status: states.ObjectReady}}
}

func TestWriteFileKeepsEarlierRunsResults(t *testing.T) {
	dir := t.TempDir()
	first := NewResults("default", "lineage-1", "run-1")
	first.Add(mustAddr(t, "null_resource.a[0]"), testProvider, object("A0"))
	first.Add(mustAddr(t, "null_resource.gone"), testProvider, nil)
	if _, err := first.WriteFile(dir, Sealing{}); err != nil {
		t.Fatal(err)
	}
	second := NewResults("default", "lineage-1", "run-2")
	second.Add(mustAddr(t, "null_resource.a[1]"), testProvider, object("A1"))
	path, err := second.WriteFile(dir, Sealing{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != FileName {
		t.Fatalf("wrote %s, want %s", path, FileName)
	}
	f, err := Read(path, Sealing{})
	if err != nil {
		t.Fatal(err)
	}
	got := Describe(f.Entries())
	want := "  null_resource.a[0] (id = A0)\n  null_resource.a[1] (id = A1)\n  null_resource.gone (deleted)"
	if got != want {
		t.Errorf("entries:\n%s\nwant:\n%s", got, want)
	}
	if strings.Join(f.RunIDs, ",") != "run-1,run-2" || f.Workspace != "default" || f.Lineage != "lineage-1" {
		t.Errorf("file metadata: runs %v, workspace %q, lineage %q", f.RunIDs, f.Workspace, f.Lineage)
	}
}

func TestWriteFileLeavesAnotherToolsFileAlone(t *testing.T) {
	dir := t.TempDir()
	foreign := `{"version": 4, "terraform_version": "1.9.0", "serial": 3, "lineage": "x", "outputs": {}, "resources": []}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(foreign), 0o644); err != nil {
		t.Fatal(err)
	}
	results := NewResults("default", "", "run-9")
	results.Add(mustAddr(t, "null_resource.a"), testProvider, object("A"))
	path, err := results.WriteFile(dir, Sealing{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "errored-run-9.tfstate" {
		t.Errorf("wrote %s, want a file named after the run", path)
	}
	if src, _ := os.ReadFile(filepath.Join(dir, FileName)); string(src) != foreign {
		t.Errorf("the other tool's file was changed:\n%s", src)
	}
	if _, err := Read(filepath.Join(dir, FileName), Sealing{}); !errors.Is(err, ErrWholeState) {
		t.Errorf("a whole state was read as unrecorded results: %v", err)
	}
}

func TestCompareAndMerge(t *testing.T) {
	dir := t.TempDir()
	results := NewResults("default", "", "run-1")
	for _, name := range []string{"pending", "missing", "recorded", "changed"} {
		results.Add(mustAddr(t, "null_resource."+name), testProvider, object(name))
	}
	results.Add(mustAddr(t, "null_resource.deleted"), testProvider, nil)
	path, err := results.WriteFile(dir, Sealing{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(path, Sealing{})
	if err != nil {
		t.Fatal(err)
	}
	snap := &recordstore.Snapshot{State: states.NewState(), InstanceVersions: map[string]recordstore.RecordVersion{}}
	record := func(name string, inst *states.ResourceInstance) {
		snap.State.SetResourceInstance(mustAddr(t, "null_resource."+name), inst, testProvider)
		snap.InstanceVersions["null_resource."+name] = recordstore.RecordVersion{Version: name}
	}
	withIntent := func(inst *states.ResourceInstance, runID string) *states.ResourceInstance {
		inst.Intent = &states.Intent{Operation: states.IntentCreate, RunID: runID}
		return inst
	}
	record("pending", withIntent(&states.ResourceInstance{}, "run-1"))
	record("recorded", object("recorded"))
	record("changed", object("someone-else"))
	record("deleted", withIntent(object("deleted"), "run-1"))

	c := f.Compare(snap)
	names := func(entries []Entry) string {
		var out []string
		for _, e := range entries {
			out = append(out, e.Addr.String())
		}
		return strings.Join(out, " ")
	}
	if got := names(c.Pending); got != "null_resource.deleted null_resource.missing null_resource.pending" {
		t.Errorf("pending: %s", got)
	}
	if got := names(c.Recorded); got != "null_resource.recorded" {
		t.Errorf("recorded: %s", got)
	}
	if got := names(c.Changed); got != "null_resource.changed" {
		t.Errorf("changed: %s", got)
	}

	changes, taken := f.Merge(snap, false)
	if got := names(taken); got != names(c.Pending) {
		t.Errorf("merge takes %s, want the pending entries", got)
	}
	for _, change := range changes {
		switch change.Addr.String() {
		case "null_resource.missing":
			if change.Prior != nil || change.Instance == nil {
				t.Errorf("missing record: %+v, want a create-if-absent of the object", change)
			}
		case "null_resource.deleted":
			if change.Prior == nil || change.Prior.Version != "deleted" || change.Instance != nil {
				t.Errorf("deleted object: %+v, want its record deleted compare-and-swap", change)
			}
		case "null_resource.pending":
			if change.Prior == nil || change.Instance == nil || change.Instance.Intent != nil {
				t.Errorf("pending create: %+v, want the object replacing the intent", change)
			}
		}
	}
	if _, taken := f.Merge(snap, true); len(taken) != 4 {
		t.Errorf("forced merge takes %d entries, want 4 (the changed one too)", len(taken))
	}
}

// sealing stands in for state encryption: what it seals holds nothing of
// the file in clear, and only it opens that.
var sealing = Sealing{
	Seal: func(state []byte) ([]byte, error) {
		return []byte("sealed:" + base64.StdEncoding.EncodeToString(state)), nil
	},
	Open: func(stored []byte) ([]byte, error) {
		rest, ok := bytes.CutPrefix(stored, []byte("sealed:"))
		if !ok {
			return nil, errors.New("not sealed")
		}
		return base64.StdEncoding.DecodeString(string(rest))
	},
}

func TestSealedFileAndDump(t *testing.T) {
	dir := t.TempDir()
	first := NewResults("default", "lineage-1", "run-1")
	first.Add(mustAddr(t, "null_resource.a"), testProvider, object("SECRET-A"))
	path, err := first.WriteFile(dir, sealing)
	if err != nil {
		t.Fatal(err)
	}
	second := NewResults("default", "lineage-1", "run-2")
	second.Add(mustAddr(t, "null_resource.b"), testProvider, object("SECRET-B"))
	if _, err := second.WriteFile(dir, sealing); err != nil {
		t.Fatal(err)
	}
	stored, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(stored, []byte("sealed:")) || bytes.Contains(stored, []byte("SECRET")) {
		t.Fatalf("the file is not sealed: %s", stored)
	}
	f, err := Read(path, sealing)
	if err != nil {
		t.Fatal(err)
	}
	if got := Describe(f.Entries()); got != "  null_resource.a (id = SECRET-A)\n  null_resource.b (id = SECRET-B)" {
		t.Errorf("the second run did not keep the first's results beside its own:\n%s", got)
	}
	if _, err := Read(path, Sealing{}); err == nil {
		t.Error("a sealed file was read without opening it")
	}
	dump, err := second.Encode(sealing)
	if err != nil || !bytes.HasPrefix(dump, []byte("sealed:")) || bytes.Contains(dump, []byte("SECRET")) {
		t.Errorf("the dump is not sealed: %v\n%s", err, dump)
	}

	failing := Sealing{Seal: func([]byte) ([]byte, error) { return nil, errors.New("key provider unreachable") }}
	other := t.TempDir()
	if _, err := second.WriteFile(other, failing); err == nil || !strings.Contains(err.Error(), "key provider unreachable") {
		t.Errorf("writing with a seal that fails: %v", err)
	}
	if entries, _ := os.ReadDir(other); len(entries) != 0 {
		t.Errorf("a seal that failed left %s", entries[0].Name())
	}
	if dump, err := second.Encode(failing); err == nil || dump != nil {
		t.Errorf("a dump whose seal failed: %v\n%s", err, dump)
	}
}
