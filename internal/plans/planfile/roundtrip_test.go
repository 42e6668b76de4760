package planfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/value"
)

var testObjectType = cty.Object(map[string]cty.Type{
	"id":       cty.String,
	"password": cty.String,
	"tags":     cty.Map(cty.String),
})

var testIdentityType = cty.Object(map[string]cty.Type{"id": cty.String})

var testTypes = plans.ObjectTypes{Value: testObjectType, Identity: testIdentityType}

func testObject(id string, tags map[string]cty.Value) cty.Value {
	tagsVal := cty.MapValEmpty(cty.String)
	if tags != nil {
		tagsVal = cty.MapVal(tags)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"id":       cty.StringVal(id),
		"password": cty.StringVal("pw-" + id).Mark(marks.Sensitive),
		"tags":     tagsVal,
	})
}

func mustInstance(t testing.TB, str string) addrs.AbsResourceInstance {
	t.Helper()
	addr, diags := addrs.ParseAbsResourceInstanceStr(str)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return addr
}

func mustProvider(t testing.TB, str string) addrs.AbsProviderConfigInstance {
	t.Helper()
	addr, diags := addrs.ParseAbsProviderConfigInstanceStr(str)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return addr
}

// testChange builds a change of the given action with values fitting it:
// no before for create, no after for delete and forget, an unknown id
// after every action that makes a new object.
func testChange(t testing.TB, addr string, action plans.Action, reason plans.ActionReason) *plans.ResourceInstanceChange {
	t.Helper()
	before := testObject("old", map[string]cty.Value{"env": cty.StringVal("prod").Mark(marks.Sensitive)})
	after := cty.ObjectVal(map[string]cty.Value{
		"id":       cty.UnknownVal(cty.String).RefineNotNull(),
		"password": cty.StringVal("new").Mark(marks.Sensitive),
		"tags":     cty.MapVal(map[string]cty.Value{"env": cty.StringVal("dev")}),
	})
	switch action {
	case plans.Create:
		before = cty.NullVal(testObjectType)
	case plans.Delete, plans.Forget:
		after = cty.NullVal(testObjectType)
	case plans.NoOp:
		after = before
	}
	instance := mustInstance(t, addr)
	change := &plans.ResourceInstanceChange{
		ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{
			Addr:         instance,
			PrevRunAddr:  instance,
			ProviderAddr: mustProvider(t, `provider["registry.opentofu.org/hashicorp/null"]`),
			ActionReason: reason,
			Private:      []byte("private-" + addr),
		},
		Change: plans.Change{Action: action, Before: before, After: after},
	}
	if action.IsReplace() {
		change.RequiredReplace = []cty.Path{cty.GetAttrPath("tags").Index(cty.StringVal("env"))}
	}
	return change
}

func encodeChange(t testing.TB, change *plans.ResourceInstanceChange) *plans.ResourceInstanceChangeSrc {
	t.Helper()
	src, err := change.Encode(testTypes)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// writeAndRead writes contents to a plan file and reads every part back.
func writeAndRead(t *testing.T, contents Contents) (*plans.Plan, *ConfigSnapshot, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tfplan")
	if err := Create(path, contents); err != nil {
		t.Fatal(err)
	}
	reader, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	plan, err := reader.ReadPlan()
	if err != nil {
		t.Fatal(err)
	}
	snapshot, err := reader.ReadConfigSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	lock, _, err := reader.ReadLockFile()
	if err != nil {
		t.Fatal(err)
	}
	return plan, snapshot, lock
}

func TestRoundTripEveryActionAndReason(t *testing.T) {
	cases := []struct {
		action plans.Action
		reason plans.ActionReason
	}{
		{plans.NoOp, plans.ReasonNone},
		{plans.Create, plans.ReasonNone},
		{plans.Read, plans.ReadBecauseConfigUnknown},
		{plans.Read, plans.ReadBecauseDependencyPending},
		{plans.Read, plans.ReadBecauseCheckNested},
		{plans.Update, plans.ReasonNone},
		{plans.DeleteThenCreate, plans.ReplaceBecauseTainted},
		{plans.DeleteThenCreate, plans.ReplaceByRequest},
		{plans.DeleteThenCreate, plans.ReplaceByTriggers},
		{plans.CreateThenDelete, plans.ReplaceBecauseCannotUpdate},
		{plans.CreateThenForget, plans.ReplaceBecauseCannotUpdate},
		{plans.Delete, plans.DeleteBecauseNoResourceConfig},
		{plans.Delete, plans.DeleteBecauseWrongRepetition},
		{plans.Delete, plans.DeleteBecauseCountIndex},
		{plans.Delete, plans.DeleteBecauseEachKey},
		{plans.Delete, plans.DeleteBecauseNoModule},
		{plans.Delete, plans.DeleteBecauseNoMoveTarget},
		{plans.Forget, plans.DeleteBecauseNoResourceConfig},
	}
	plan := &plans.Plan{Applyable: true, Complete: true, Timestamp: time.Date(2025, 3, 4, 5, 6, 7, 890, time.UTC)}
	var originals []*plans.ResourceInstanceChange
	for i, tc := range cases {
		change := testChange(t, "module.m[\"k\"].null_resource.r["+string(rune('0'+i%10))+"]", tc.action, tc.reason)
		if i >= 10 {
			change.Addr = mustInstance(t, "null_resource.more["+string(rune('0'+i-10))+"]")
			change.PrevRunAddr = change.Addr
		}
		originals = append(originals, change)
		plan.Changes.Resources = append(plan.Changes.Resources, encodeChange(t, change))
	}
	got, _, _ := writeAndRead(t, Contents{Plan: plan})
	if !got.Timestamp.Equal(plan.Timestamp) {
		t.Errorf("timestamp %s, want %s", got.Timestamp, plan.Timestamp)
	}
	if len(got.Changes.Resources) != len(cases) {
		t.Fatalf("read %d changes, wrote %d", len(got.Changes.Resources), len(cases))
	}
	for i, original := range originals {
		t.Run(original.Action.String()+"/"+original.ActionReason.String(), func(t *testing.T) {
			src := got.Changes.Resources[i]
			if src.Addr.String() != original.Addr.String() || src.Action != original.Action || src.ActionReason != original.ActionReason {
				t.Fatalf("read %s %s %s, wrote %s %s %s", src.Addr, src.Action, src.ActionReason, original.Addr, original.Action, original.ActionReason)
			}
			if !bytes.Equal(src.Private, original.Private) || src.ProviderAddr.String() != original.ProviderAddr.String() {
				t.Errorf("private %q provider %s", src.Private, src.ProviderAddr)
			}
			if len(src.RequiredReplace) != len(original.RequiredReplace) {
				t.Errorf("required replace %#v, want %#v", src.RequiredReplace, original.RequiredReplace)
			}
			decoded, err := src.Decode(testTypes)
			if err != nil {
				t.Fatal(err)
			}
			assertSameValue(t, "before", decoded.Before, original.Before)
			assertSameValue(t, "after", decoded.After, original.After)
		})
	}
}

// assertSameValue compares values including unknowns, refinements and
// sensitive marks.
func assertSameValue(t *testing.T, what string, got, want cty.Value) {
	t.Helper()
	if !got.RawEquals(want) {
		t.Errorf("%s value\n got %#v\nwant %#v", what, got, want)
	}
}

func TestRoundTripEverythingElse(t *testing.T) {
	imported := testChange(t, "aws_instance.imported", plans.Update, plans.ReasonNone)
	imported.Importing = &plans.Importing{ID: "i-123", Identity: cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-123")})}
	imported.GeneratedConfig = "resource \"aws_instance\" \"imported\" {\n}\n"
	imported.BeforeIdentity = cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-123")})
	imported.AfterIdentity = imported.BeforeIdentity
	moved := testChange(t, "null_resource.new_name", plans.NoOp, plans.ReasonNone)
	moved.PrevRunAddr = mustInstance(t, "null_resource.old_name")
	deposed := testChange(t, "null_resource.cbd", plans.Delete, plans.ReasonNone)
	deposed.DeposedKey = "0badf00d"
	deferred := &plans.DeferredResourceInstanceChange{
		Reason: plans.DeferredReasonProviderConfigUnknown,
		Change: testChange(t, "null_resource.later", plans.Create, plans.ReasonNone),
	}
	deferredSrc, err := deferred.Encode(testTypes)
	if err != nil {
		t.Fatal(err)
	}
	outputChange := &plans.OutputChange{
		Addr:      addrs.OutputValue{Name: "token"}.Absolute(addrs.RootModuleInstance),
		Change:    plans.Change{Action: plans.Update, Before: cty.StringVal("a"), After: cty.UnknownVal(cty.String)},
		Sensitive: true,
	}
	outputSrc, err := outputChange.Encode()
	if err != nil {
		t.Fatal(err)
	}
	name, err := plans.EncodeVariableValue(cty.ListVal([]cty.Value{cty.StringVal("x")}))
	if err != nil {
		t.Fatal(err)
	}
	recordData, err := anypb.New(wrapperspb.String("record content"))
	if err != nil {
		t.Fatal(err)
	}
	plan := &plans.Plan{
		UIMode:             plans.RefreshOnlyMode,
		VariableValues:     map[string]value.Dynamic{"names": name},
		ApplyTimeVariables: []string{"session_token"},
		Changes: plans.Changes{
			Resources: []*plans.ResourceInstanceChangeSrc{encodeChange(t, imported), encodeChange(t, moved), encodeChange(t, deposed)},
			Outputs:   []*plans.OutputChangeSrc{outputSrc},
		},
		DriftedResources:   []*plans.ResourceInstanceChangeSrc{encodeChange(t, testChange(t, "null_resource.drifted", plans.Update, plans.ReasonNone))},
		Deferred:           []*plans.DeferredResourceInstanceChangeSrc{deferredSrc},
		RelevantAttributes: []plans.ResourceAttr{{Resource: mustInstance(t, "null_resource.drifted"), Attr: cty.GetAttrPath("tags").Index(cty.StringVal("env"))}},
		Checks: []plans.CheckResult{{
			Kind: plans.CheckableResource, ConfigAddr: "null_resource.r", Status: plans.CheckFail,
			Objects: []plans.CheckObjectResult{{ObjectAddr: "null_resource.r[0]", Status: plans.CheckFail, FailureMessages: []string{"too big"}}},
		}},
		TargetAddrs:       []string{"module.m", "null_resource.r[1]"},
		ExcludeAddrs:      []string{"null_resource.skip"},
		ForceReplaceAddrs: []addrs.AbsResourceInstance{mustInstance(t, `null_resource.r["a"]`)},
		Workspace:         "default",
		PriorRecords:      []plans.PriorRecord{{Name: "null_resource.old_name", Kind: "ResourceInstance", Uid: "01J0000000000000000000000A", Generation: "01J0000000000000000000000B", Version: "7", Data: recordData}},
		AbsentRecords:     []string{`null_resource.r["a"]`, "null_resource.r[1]"},
		EngineVersion:     "0.1.0",
		Errored:           true,
		FunctionResults:   []plans.FunctionResult{{Key: []byte("k"), Result: []byte("r")}},
	}
	snapshot := &ConfigSnapshot{Modules: map[string]*SnapshotModule{
		"":  {Dir: ".", Files: map[string][]byte{"main.tf": []byte("module \"m\" {}\n"), "vars.tofu": []byte("# tofu\n")}},
		"m": {Dir: "modules/m", SourceAddr: "./modules/m", Files: map[string][]byte{"m.tf": []byte("# m\n")}},
	}}
	lock := []byte("# lock file\n")
	got, gotSnapshot, gotLock := writeAndRead(t, Contents{Plan: plan, Config: snapshot, LockFile: lock})

	wantPlan := *plan
	wantPlan.Timestamp = time.Time{}
	wantPlan.Saved = true // read from a file
	assertPlansEqual(t, got, &wantPlan)
	if !bytes.Equal(gotLock, lock) {
		t.Errorf("lock file %q, want %q", gotLock, lock)
	}
	assertSnapshotsEqual(t, gotSnapshot, snapshot)

	decodedImport, err := got.Changes.Resources[0].Decode(testTypes)
	if err != nil {
		t.Fatal(err)
	}
	if decodedImport.Importing == nil || decodedImport.Importing.ID != "i-123" || !decodedImport.Importing.Identity.RawEquals(imported.Importing.Identity) {
		t.Errorf("importing %+v, want %+v", decodedImport.Importing, imported.Importing)
	}
	if !decodedImport.AfterIdentity.RawEquals(imported.AfterIdentity) {
		t.Errorf("after identity %#v, want %#v", decodedImport.AfterIdentity, imported.AfterIdentity)
	}
	decodedOutput, err := got.Changes.Outputs[0].Decode()
	if err != nil {
		t.Fatal(err)
	}
	assertSameValue(t, "output after", decodedOutput.After, outputChange.After)
	if names, err := got.VariableValue("names"); err != nil || !names.RawEquals(cty.ListVal([]cty.Value{cty.StringVal("x")})) {
		t.Errorf("variable names = %#v (%v)", names, err)
	}
}

// assertPlansEqual compares the parts of two plans a round trip keeps,
// comparing encoded values byte for byte and records by content.
func assertPlansEqual(t *testing.T, got, want *plans.Plan) {
	t.Helper()
	gotRecords, wantRecords := got.PriorRecords, want.PriorRecords
	got.PriorRecords, want.PriorRecords = nil, nil
	defer func() { got.PriorRecords, want.PriorRecords = gotRecords, wantRecords }()
	if diff := cmpPlans(got, want); diff != "" {
		t.Errorf("plan differs after a round trip (-got +want):\n%s", diff)
	}
	if len(gotRecords) != len(wantRecords) {
		t.Fatalf("%d prior records, want %d", len(gotRecords), len(wantRecords))
	}
	for i := range gotRecords {
		g, w := gotRecords[i], wantRecords[i]
		if g.Name != w.Name || g.Kind != w.Kind || g.Uid != w.Uid || g.Generation != w.Generation || g.Version != w.Version || !proto.Equal(g.Data, w.Data) {
			t.Errorf("prior record %+v, want %+v", g, w)
		}
	}
}

func assertSnapshotsEqual(t *testing.T, got, want *ConfigSnapshot) {
	t.Helper()
	if len(got.Modules) != len(want.Modules) {
		t.Fatalf("snapshot has %d modules, want %d", len(got.Modules), len(want.Modules))
	}
	for key, wantModule := range want.Modules {
		gotModule := got.Modules[key]
		if gotModule == nil || gotModule.Dir != wantModule.Dir || gotModule.SourceAddr != wantModule.SourceAddr || len(gotModule.Files) != len(wantModule.Files) {
			t.Fatalf("module %q = %+v, want %+v", key, gotModule, wantModule)
		}
		for name, content := range wantModule.Files {
			if !bytes.Equal(gotModule.Files[name], content) {
				t.Errorf("module %q file %s = %q, want %q", key, name, gotModule.Files[name], content)
			}
		}
	}
}

func TestAddModuleDirTakesConfigurationFilesOnly(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"main.tf": "a", "x.tf.json": "{}", "y.tofu": "b", "notes.txt": "no", ".hidden.tf": "no", "main.tf~": "no"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var snapshot ConfigSnapshot
	if err := snapshot.AddModuleDir("", "", "", dir); err != nil {
		t.Fatal(err)
	}
	files := snapshot.Modules[""].Files
	if len(files) != 3 || files["main.tf"] == nil || files["x.tf.json"] == nil || files["y.tofu"] == nil {
		t.Errorf("snapshot files %v, want main.tf, x.tf.json and y.tofu", sortedKeys(files))
	}
}

func cmpPlans(got, want *plans.Plan) string {
	return cmp.Diff(got, want,
		cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
		cmpopts.EquateEmpty(),
	)
}
