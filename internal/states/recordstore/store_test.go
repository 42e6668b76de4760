package recordstore_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/store/memory"
)

func newStore(t *testing.T) *recordstore.Store {
	t.Helper()
	backend := memory.New()
	t.Cleanup(func() { _ = backend.Close() })
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	return recordstore.New(resourceservice.New(backend, registry), "proj", "prod")
}

// importFile stores every instance and output of a state file, as
// `terrane state push` would.
func importFile(t *testing.T, s *recordstore.Store, file *statefile.File) {
	t.Helper()
	ctx := t.Context()
	if _, err := s.SetWorkspaceMetadata(ctx, file.Lineage, int64(file.Serial), int64(file.Serial), file.State.CheckResultsJSON); err != nil {
		t.Fatal(err)
	}
	var changes []recordstore.InstanceChange
	for _, entry := range file.State.AllResourceInstances() {
		changes = append(changes, recordstore.InstanceChange{Addr: entry.Addr, ProviderConfig: entry.ProviderConfig, Instance: entry.Instance})
	}
	if _, err := s.Commit(ctx, changes); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteOutputs(ctx, file.State.Outputs); err != nil {
		t.Fatal(err)
	}
}

func TestStateFilesRoundTripThroughRecords(t *testing.T) {
	paths, _ := filepath.Glob("../statefile/testdata/*.tfstate")
	if len(paths) == 0 {
		t.Fatal("no corpus")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			file, err := statefile.Read(bytes.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			s := newStore(t)
			importFile(t, s, file)
			snap, err := s.Load(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			exported := &statefile.File{
				TerraformVersion: file.TerraformVersion, Serial: uint64(snap.Workspace.Serial),
				Lineage: snap.Workspace.Lineage, State: snap.State,
			}
			var out bytes.Buffer
			if err := statefile.Write(exported, &out); err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, src, out.Bytes())
			if got, want := len(snap.InstanceVersions), len(file.State.AllResourceInstances()); got != want {
				t.Errorf("loaded %d record versions for %d instances", got, want)
			}
		})
	}
}

func assertSameJSON(t *testing.T, want, got []byte) {
	t.Helper()
	var wantDoc, gotDoc any
	if err := json.Unmarshal(want, &wantDoc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &gotDoc); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(wantDoc, gotDoc) {
		t.Fatalf("documents differ\nwant:\n%s\ngot:\n%s", want, got)
	}
}

var nullProvider = addrs.AbsProviderConfig{Provider: addrs.Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "null"}}

func instance(t *testing.T, str string) addrs.AbsResourceInstance {
	t.Helper()
	addr, diags := addrs.ParseAbsResourceInstanceStr(str)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return addr
}

func object(id string) *states.ResourceInstance {
	return &states.ResourceInstance{Current: &states.ResourceInstanceObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `"}`), Status: states.ObjectReady}}
}

func TestCommitIsCompareAndSwap(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.BeginRun(ctx, "0.1.0"); err != nil {
		t.Fatal(err)
	}
	addr := instance(t, `module.a["x"].null_resource.n[3]`)
	created, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: object("1")}})
	if err != nil {
		t.Fatal(err)
	}
	first := created[addr.String()]
	if first.Version == "" || first.Generation == "" {
		t.Fatalf("no version returned: %+v", created)
	}

	_, err = s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: object("again")}})
	var conflict *recordstore.ConflictError
	if !errors.As(err, &conflict) || conflict.Addr.String() != addr.String() {
		t.Fatalf("second create: got %v, want a conflict on %s", err, addr)
	}

	updated, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: object("2"), Prior: &first}})
	if err != nil {
		t.Fatal(err)
	}
	if updated[addr.String()].Generation == first.Generation {
		t.Error("changed content kept its generation")
	}

	other := instance(t, "null_resource.other")
	_, err = s.Commit(ctx, []recordstore.InstanceChange{
		{Addr: other, ProviderConfig: nullProvider, Instance: object("o")},
		{Addr: addr, ProviderConfig: nullProvider, Instance: object("stale"), Prior: &first},
	})
	if !errors.As(err, &conflict) || conflict.Addr.String() != addr.String() {
		t.Fatalf("stale update: got %v, want a conflict on %s", err, addr)
	}
	if got, _ := s.ReadInstance(ctx, other); got != nil {
		t.Error("a batch with a conflict still created another instance")
	}
	read, err := s.ReadInstance(ctx, addr)
	if err != nil || read == nil || string(read.Instance.Current.AttrsJSON) != `{"id":"2"}` {
		t.Fatalf("read back %+v, %v", read, err)
	}
	if read.Record != updated[addr.String()] {
		t.Errorf("read version %+v, committed %+v", read.Record, updated[addr.String()])
	}

	prior := read.Record
	if _, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, Prior: &prior}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ReadInstance(ctx, addr); got != nil {
		t.Error("deleted instance is still there")
	}
}

func TestIntentsAreRecordedAndCleared(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.BeginRun(ctx, "0.1.0"); err != nil {
		t.Fatal(err)
	}
	addr := instance(t, "null_resource.n")
	started := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	intent := &states.Intent{
		Operation: states.IntentCreate, RunID: "run-1", StartedAt: started, Holder: "host:42",
		PlannedType: cty.Object(map[string]cty.Type{"id": cty.String}), PlannedMsgpack: []byte{0x81},
	}
	versions, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: &states.ResourceInstance{Intent: intent}}})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := snap.State.ResourceInstance(addr)
	if got == nil || got.Intent == nil || got.Intent.RunID != "run-1" || !got.Intent.StartedAt.Equal(started) ||
		!got.Intent.PlannedType.Equals(intent.PlannedType) || got.Current != nil {
		t.Fatalf("loaded intent %+v", got)
	}
	prior := versions[addr.String()]
	if _, err := s.Commit(ctx, []recordstore.InstanceChange{{Addr: addr, ProviderConfig: nullProvider, Instance: object("1"), Prior: &prior}}); err != nil {
		t.Fatal(err)
	}
	read, _ := s.ReadInstance(ctx, addr)
	if read.Instance.Intent != nil || read.Instance.Current == nil {
		t.Fatalf("after the result: %+v", read.Instance)
	}
}

func TestBeginRunIncrementsSerialAndKeepsLineage(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	first, err := s.BeginRun(ctx, "0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.BeginRun(ctx, "0.1.1")
	if err != nil {
		t.Fatal(err)
	}
	if first.Lineage == "" || second.Lineage != first.Lineage || second.Serial != first.Serial+1 || second.EngineVersion != "0.1.1" {
		t.Fatalf("first %+v, second %+v", first, second)
	}
}
