package journal

import (
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
)

// crashedCall is a provider call a run announced and then died in: the
// intent is durable, the result was never recorded.
type crashedCall struct {
	addr addrs.AbsResourceInstance
	inst *states.ResourceInstance
}

// beginAndCrash records inst (with its intent) the way BeginCall does, on
// top of whatever the record held, and never finishes.
func (c *cloud) beginAndCrash(addr addrs.AbsResourceInstance, prior *states.ResourceInstance, intent *states.Intent) {
	c.t.Helper()
	var version *recordstore.RecordVersion
	if prior != nil {
		v, err := c.journal.Write(c.ctx, recordstore.InstanceChange{Addr: addr, ProviderConfig: c.providerConfig(), Instance: prior})
		if err != nil {
			c.t.Fatal(err)
		}
		version = v
	}
	inst := &states.ResourceInstance{Intent: intent}
	if prior != nil {
		inst = prior.DeepCopy()
		inst.Intent = intent
	}
	// The crashed run's process is gone: an id no process has now.
	intent.Holder = Holder()[:strings.LastIndexByte(Holder(), ':')] + ":" + strconv.Itoa(deadPID(c.t))
	if _, err := c.journal.BeginCall(c.ctx, addr, c.providerConfig(), inst, version); err != nil {
		c.t.Fatal(err)
	}
}

func (c *cloud) plannedIntent(op states.IntentOperation, planned cty.Value) *states.Intent {
	c.t.Helper()
	raw, err := ctymsgpack.Marshal(planned, c.block.ImpliedType())
	if err != nil {
		c.t.Fatal(err)
	}
	return &states.Intent{Operation: op, PlannedMsgpack: raw, PlannedType: c.block.ImpliedType(), RunID: "01CRASHEDRUN", StartedAt: time.Now().Add(-time.Minute)}
}

func (c *cloud) recover() (*recordstore.Snapshot, *Recovery, diags.Diagnostics) {
	c.t.Helper()
	snap, err := c.store.Load(c.ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	recovery, d := c.journal.Recover(c.ctx, snap, RecoverOptions{Reader: c.reader, Claims: ClaimRule{OwnRunID: "01NEXTRUN"}})
	return snap, recovery, d
}

func (c *cloud) recorded(addr addrs.AbsResourceInstance) *states.ResourceInstance {
	c.t.Helper()
	rec, err := c.store.ReadInstance(c.ctx, addr)
	if err != nil {
		c.t.Fatal(err)
	}
	if rec == nil {
		return nil
	}
	return rec.Instance
}

func TestRecoverReadsBackInterruptedUpdatesAndDeletes(t *testing.T) {
	c := newCloud(t)
	updated := mustAddr(t, "tpf_thing.updated")
	deleted := mustAddr(t, "tpf_thing.deleted")
	notDeleted := mustAddr(t, "tpf_thing.not_deleted")

	// An update that reached the provider: the cloud has the new
	// description, the record still the old object and the intent.
	before := c.apply(nil, c.thingConfig(map[string]cty.Value{"name": cty.StringVal("u"), "description": cty.StringVal("old")}))
	newConfig := c.thingConfig(map[string]cty.Value{"name": cty.StringVal("u"), "description": cty.StringVal("new")})
	c.beginAndCrash(updated, &states.ResourceInstance{Current: c.encode(before)}, c.plannedIntent(states.IntentUpdate, proposedValue(c.block, before.value, newConfig)))
	after := c.apply(before, newConfig)

	// A delete that reached the provider.
	doomed := c.apply(nil, c.thingConfig(map[string]cty.Value{"name": cty.StringVal("d")}))
	c.beginAndCrash(deleted, &states.ResourceInstance{Current: c.encode(doomed)}, c.plannedIntent(states.IntentDelete, cty.NullVal(c.block.ImpliedType())))
	c.apply(doomed, cty.NullVal(c.block.ImpliedType()))

	// A delete announced but never sent.
	survivor := c.apply(nil, c.thingConfig(map[string]cty.Value{"name": cty.StringVal("s")}))
	c.beginAndCrash(notDeleted, &states.ResourceInstance{Current: c.encode(survivor)}, c.plannedIntent(states.IntentDelete, cty.NullVal(c.block.ImpliedType())))

	snap, recovery, d := c.recover()
	mustSucceed(t, "Recover", d)
	if want := []string{"tpf_thing.deleted", "tpf_thing.not_deleted", "tpf_thing.updated"}; !slices.Equal(addrStrings(recovery.Resolved), want) {
		t.Fatalf("resolved %v, want %v", addrStrings(recovery.Resolved), want)
	}
	if len(recovery.LeaveAlone()) != 0 {
		t.Errorf("addresses left alone after every intent resolved: %v", recovery.LeaveAlone())
	}

	rec := c.recorded(updated)
	if rec == nil || rec.Intent != nil || !strings.Contains(string(rec.Current.AttrsJSON), `"description":"new"`) {
		t.Fatalf("interrupted update recorded as %+v; want the new description read back and the intent cleared", rec)
	}
	if got := after.value.GetAttr("revision"); !strings.Contains(string(rec.Current.AttrsJSON), `"revision":`+got.AsBigFloat().Text('f', -1)) {
		t.Errorf("read-back object %s lacks the revision %s the update produced", rec.Current.AttrsJSON, got.AsBigFloat().Text('f', -1))
	}
	if rec := c.recorded(deleted); rec != nil {
		t.Errorf("an object the provider deleted is still recorded: %+v", rec)
	}
	rec = c.recorded(notDeleted)
	if rec == nil || rec.Intent != nil || rec.Current == nil {
		t.Errorf("a delete that never happened: recorded %+v; want the object kept, intent cleared", rec)
	}
	// The snapshot the run goes on with matches the store.
	if got := snap.State.ResourceInstance(deleted); got != nil {
		t.Errorf("snapshot still has %s", deleted)
	}
	if v, err := c.store.ReadInstance(c.ctx, updated); err != nil || snap.InstanceVersions[updated.String()] != v.Record {
		t.Errorf("snapshot version of %s is not the recorded one", updated)
	}
}

func TestRecoverReportsInterruptedCreatesAndLeavesThemAlone(t *testing.T) {
	c := newCloud(t)
	addr := mustAddr(t, `tpf_thing.made["x"]`)
	config := c.thingConfig(map[string]cty.Value{"name": cty.StringVal("made-x"), "secret": cty.StringVal("hunter2")})
	c.beginAndCrash(addr, nil, c.plannedIntent(states.IntentCreate, proposedValue(c.block, cty.NullVal(c.block.ImpliedType()), config)))
	made := c.apply(nil, config) // the create happened; its answer was lost

	_, recovery, d := c.recover()
	if d.HasErrors() {
		t.Fatalf("an interrupted create is not an error: %v", d.Err())
	}
	if !slices.Equal(addrStrings(recovery.MayExist), []string{addr.String()}) {
		t.Fatalf("MayExist = %v, want %s", addrStrings(recovery.MayExist), addr)
	}
	if _, ok := recovery.LeaveAlone()[addr.UniqueKey()]; !ok {
		t.Errorf("%s is not in the set to leave alone", addr)
	}
	if len(d) != 1 {
		t.Fatalf("diagnostics %v, want one", d)
	}
	report := d[0]
	text := report.Summary + "\n" + report.Detail
	for _, want := range []string{
		"Create may have happened", "01CRASHEDRUN", `name = "made-x"`, "id = (known after apply)",
		`terrane import 'tpf_thing.made["x"]' ID`, `terrane state rm 'tpf_thing.made["x"]'`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "hunter2") || !strings.Contains(text, "secret = (sensitive value)") {
		t.Errorf("report shows the sensitive attribute:\n%s", text)
	}
	if report.Address != addr.String() {
		t.Errorf("report is about %q, want %s", report.Address, addr)
	}
	if rec := c.recorded(addr); rec == nil || rec.Intent == nil || rec.Intent.Operation != states.IntentCreate {
		t.Errorf("the create intent must stay open until the user resolves it; record is %+v", rec)
	}
	if !c.cloudFileExists(made.value.GetAttr("id").AsString()) {
		t.Errorf("the created object vanished from the cloud")
	}
	// Every later run reports it again.
	if _, again, _ := c.recover(); len(again.MayExist) != 1 {
		t.Errorf("the second recovery reported %v", addrStrings(again.MayExist))
	}
}

func TestRecoverTurnsAReplacementWhoseDeleteHappenedIntoAReportedCreate(t *testing.T) {
	c := newCloud(t)
	addr := mustAddr(t, "tpf_thing.replaced")
	old := c.apply(nil, c.thingConfig(map[string]cty.Value{"name": cty.StringVal("v1")}))
	newConfig := c.thingConfig(map[string]cty.Value{"name": cty.StringVal("v2")})
	c.beginAndCrash(addr, &states.ResourceInstance{Current: c.encode(old)}, c.plannedIntent(states.IntentReplaceDestroyBeforeCreate, proposedValue(c.block, cty.NullVal(c.block.ImpliedType()), newConfig)))
	c.apply(old, cty.NullVal(c.block.ImpliedType())) // the delete half ran

	_, recovery, d := c.recover()
	if !slices.Equal(addrStrings(recovery.MayExist), []string{addr.String()}) || d.HasErrors() {
		t.Fatalf("MayExist %v, diagnostics %v; want the replacement reported as a create", addrStrings(recovery.MayExist), d)
	}
	rec := c.recorded(addr)
	if rec == nil || rec.Current != nil || rec.Intent == nil || rec.Intent.Operation != states.IntentCreate {
		t.Fatalf("record %+v; want the deleted object gone and an open create intent", rec)
	}
}

func TestRecoverLeavesUnreadableObjectsOpen(t *testing.T) {
	c := newCloud(t)
	addr := mustAddr(t, "tpf_thing.unreadable")
	obj := c.apply(nil, c.thingConfig(map[string]cty.Value{"name": cty.StringVal("r"), "fail": cty.StringVal("read_error")}))
	c.beginAndCrash(addr, &states.ResourceInstance{Current: c.encode(obj)}, c.plannedIntent(states.IntentUpdate, obj.value))

	_, recovery, d := c.recover()
	if !d.HasErrors() || d[0].Address != addr.String() || !strings.Contains(d[0].Summary, "interrupted update of "+addr.String()) {
		t.Fatalf("diagnostics %v; want an error naming %s", d, addr)
	}
	if !slices.Equal(addrStrings(recovery.Unresolved), []string{addr.String()}) {
		t.Fatalf("Unresolved = %v", addrStrings(recovery.Unresolved))
	}
	if rec := c.recorded(addr); rec == nil || rec.Intent == nil {
		t.Errorf("an intent that could not be resolved was cleared: %+v", rec)
	}
}

func TestRecoverRespectsTheClaimsOfLiveRuns(t *testing.T) {
	c := newCloud(t)
	addr := mustAddr(t, "tpf_thing.busy")
	obj := c.apply(nil, c.thingConfig(map[string]cty.Value{"name": cty.StringVal("b")}))
	c.beginAndCrash(addr, &states.ResourceInstance{Current: c.encode(obj)}, c.plannedIntent(states.IntentDelete, cty.NullVal(c.block.ImpliedType())))
	// Make the holder this very process: a live run.
	rec, err := c.store.ReadInstance(c.ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	live := rec.Instance.DeepCopy()
	live.Intent.Holder = Holder()
	live.Intent.RunID = "01LIVERUN"
	if _, err := c.journal.Write(c.ctx, recordstore.InstanceChange{Addr: addr, ProviderConfig: c.providerConfig(), Instance: live, Prior: &rec.Record}); err != nil {
		t.Fatal(err)
	}
	c.apply(obj, cty.NullVal(c.block.ImpliedType())) // the live run's delete is under way

	_, recovery, d := c.recover()
	if !slices.Equal(addrStrings(recovery.Claimed), []string{addr.String()}) {
		t.Fatalf("Claimed = %v, want %s", addrStrings(recovery.Claimed), addr)
	}
	if len(d) != 1 || d[0].Severity != diags.Warning || !strings.Contains(d[0].Detail, "01LIVERUN") {
		t.Errorf("diagnostics %v; want one warning naming the live run", d)
	}
	if got := c.recorded(addr); got == nil || got.Intent == nil || got.Intent.RunID != "01LIVERUN" {
		t.Errorf("the live run's intent was touched: %+v", got)
	}
}

func TestClaimRule(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	host := Holder()[:strings.LastIndexByte(Holder(), ':')]
	dead := host + ":" + strconv.Itoa(deadPID(t))
	tests := []struct {
		name   string
		intent states.Intent
		want   bool
	}{
		{"this process, young", states.Intent{RunID: "other", Holder: Holder(), StartedAt: now.Add(-time.Minute)}, true},
		{"this process, older than the TTL", states.Intent{RunID: "other", Holder: Holder(), StartedAt: now.Add(-3 * time.Hour)}, false},
		{"own run", states.Intent{RunID: "mine", Holder: Holder(), StartedAt: now.Add(-time.Minute)}, false},
		{"dead process on this host", states.Intent{RunID: "other", Holder: dead, StartedAt: now.Add(-time.Second)}, false},
		{"dead process on this host, spelled HOST pid PID", states.Intent{RunID: "other", Holder: strings.Replace(dead, ":", " pid ", 1), StartedAt: now.Add(-time.Second)}, false},
		{"this process, spelled HOST pid PID", states.Intent{RunID: "other", Holder: strings.Replace(Holder(), ":", " pid ", 1), StartedAt: now.Add(-time.Second)}, true},
		{"other host, young", states.Intent{RunID: "other", Holder: "elsewhere.example:42", StartedAt: now.Add(-time.Hour)}, true},
		{"other host, older than the TTL", states.Intent{RunID: "other", Holder: "elsewhere.example:42", StartedAt: now.Add(-2 * time.Hour)}, false},
		{"no holder, young", states.Intent{RunID: "other", StartedAt: now.Add(-time.Minute)}, true},
		{"no start time", states.Intent{RunID: "other", Holder: "elsewhere.example:42"}, false},
	}
	rule := ClaimRule{OwnRunID: "mine", Now: func() time.Time { return now }}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rule.HeldByLiveRun(&tt.intent); got != tt.want {
				t.Errorf("HeldByLiveRun = %t, want %t", got, tt.want)
			}
		})
	}
}

// deadPID is the id of a process that has exited and been reaped.
func deadPID(t testing.TB) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func addrStrings(list []addrs.AbsResourceInstance) []string {
	var out []string
	for _, addr := range list {
		out = append(out, addr.String())
	}
	return out
}
