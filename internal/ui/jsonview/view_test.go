package jsonview

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/version"
)

// readLines decodes a stream of one JSON object per line.
func readLines(t *testing.T, raw []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	scanner := bufio.NewScanner(bytes.NewReader(raw))
	scanner.Buffer(nil, 1<<20)
	for scanner.Scan() {
		var msg map[string]any
		if err := json.Unmarshal(scanner.Bytes(), &msg); err != nil {
			t.Fatalf("line is not one JSON object: %s\n%s", err, scanner.Text())
		}
		out = append(out, msg)
	}
	return out
}

// comparable drops what legitimately differs between two runs and two
// programs: the time, the module name and the version message's versions.
func comparable(msg map[string]any) map[string]any {
	out := map[string]any{}
	for key, value := range msg {
		out[key] = value
	}
	delete(out, "@timestamp")
	delete(out, "@module")
	if out["type"] == "version" {
		// The program and its version differ by design; the message's
		// shape is checked in TestVersionMessage.
		return map[string]any{"type": "version"}
	}
	return out
}

// asOpenTofuMessage turns a message Terraform 1.11 wrote into the one
// OpenTofu writes, where they differ: OpenTofu's change summary always has
// "forget" (internal/command/views/json/change_summary.go).
func asOpenTofuMessage(msg map[string]any) map[string]any {
	if changes, ok := msg["changes"].(map[string]any); ok && msg["type"] == "change_summary" {
		if _, ok := changes["forget"]; !ok {
			changes["forget"] = float64(0)
		}
	}
	return msg
}

func resourceInstance(t *testing.T, addr string) addrs.AbsResourceInstance {
	t.Helper()
	parsed, d := addrs.ParseAbsResourceInstanceStr(addr)
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	return parsed
}

func terraformDataValue(id, input string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal(id), "input": cty.StringVal(input), "output": cty.StringVal(input), "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
}

// TestApplyStreamMatchesTerraform replays the events of the apply recorded
// in testdata/terraform-apply.jsonl (terraform 1.11 -json, changing one
// terraform_data input) and compares every message, timestamps aside.
func TestApplyStreamMatchesTerraform(t *testing.T) {
	const idA, idB = "4939aad1-df2a-b4a2-f7fb-1f20eca7db0e", "401bf43f-e3ff-cc5e-9b8e-f77c011e5a6b"
	a, b := resourceInstance(t, "terraform_data.a"), resourceInstance(t, "terraform_data.b[0]")
	var buf bytes.Buffer
	view := New(&buf)
	hook := NewHook(view, time.Hour)
	defer hook.Stop()

	view.Version()
	hook.PreRefresh(a, addrs.NotDeposed, terraformDataValue(idA, "z"))
	hook.PostRefresh(a, addrs.NotDeposed, terraformDataValue(idA, "z"), terraformDataValue(idA, "z"))
	hook.PreRefresh(b, addrs.NotDeposed, terraformDataValue(idB, "y"))
	hook.PostRefresh(b, addrs.NotDeposed, terraformDataValue(idB, "y"), terraformDataValue(idB, "y"))
	changes := []*plans.ResourceInstanceChangeSrc{
		{ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: a, PrevRunAddr: a}, ChangeSrc: plans.ChangeSrc{Action: plans.Update}},
		{ResourceInstanceChangeHeader: plans.ResourceInstanceChangeHeader{Addr: b, PrevRunAddr: b}, ChangeSrc: plans.ChangeSrc{Action: plans.NoOp}},
	}
	for _, change := range changes {
		view.PlannedChange(change)
	}
	view.ChangeSummary(SummarizePlan(changes, OperationPlan))
	view.PlannedOutputs([]*plans.OutputChangeSrc{
		{Addr: addrs.AbsOutputValue{OutputValue: addrs.OutputValue{Name: "o"}}, ChangeSrc: plans.ChangeSrc{Action: plans.Update}},
		{Addr: addrs.AbsOutputValue{OutputValue: addrs.OutputValue{Name: "s"}}, ChangeSrc: plans.ChangeSrc{Action: plans.NoOp}, Sensitive: true},
	})
	hook.PreApply(a, addrs.NotDeposed, plans.Update, terraformDataValue(idA, "z"), terraformDataValue(idA, "w"))
	hook.PostApply(a, addrs.NotDeposed, terraformDataValue(idA, "w"), nil)
	view.ChangeSummary(ChangeSummary{Change: 1, Operation: OperationApply})
	view.Outputs(map[string]*states.OutputValue{
		"o": {Value: cty.StringVal("w")},
		"s": {Value: cty.StringVal("secret"), Sensitive: true},
	})

	got := assertSameMessages(t, buf.Bytes(), "testdata/terraform-apply.jsonl")
	for i := range got {
		if got[i]["@module"] != Module {
			t.Errorf("message %d has @module %v", i+1, got[i]["@module"])
		}
		if _, err := time.Parse(time.RFC3339Nano, got[i]["@timestamp"].(string)); err != nil {
			t.Errorf("message %d: @timestamp: %s", i+1, err)
		}
	}
	assertTerraformJSONReads(t, buf.Bytes())
	if strings.Contains(buf.String(), "secret") {
		t.Errorf("the sensitive output's value was written:\n%s", buf.String())
	}
}

// assertTerraformJSONReads checks that terraform-json's log reader accepts
// every line, with the version message's UI version typed. Like OpenTofu's,
// the message gives the engine's version as "tofu", which terraform-json's
// Terraform field does not read.
func assertTerraformJSONReads(t *testing.T, raw []byte) {
	t.Helper()
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		msg, err := tfjson.UnmarshalLogMessage(line)
		if err != nil {
			t.Errorf("terraform-json cannot read %s: %s", line, err)
			continue
		}
		if version, ok := msg.(tfjson.VersionLogMessage); ok && version.UI == nil {
			t.Errorf("version message without versions: %s", line)
		}
	}
}

func TestDiagnosticMatchesTerraform(t *testing.T) {
	src, err := os.ReadFile("testdata/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	file, d := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	var buf bytes.Buffer
	view := New(&buf)
	view.Diagnostics(diags.Diagnostics{{
		Severity: diags.Error,
		Summary:  "Reference to undeclared input variable",
		Detail:   `An input variable with the name "nope" has not been declared. This variable can be declared with a variable "nope" {} block.`,
		Subject:  &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 11, Column: 41, Byte: 250}, End: hcl.Pos{Line: 11, Column: 49, Byte: 258}},
	}}, ui.Sources{"main.tf": file})
	want, err := os.ReadFile("testdata/terraform-plan-error.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	got, wantLines := readLines(t, buf.Bytes()), readLines(t, want)
	if g, w := comparable(got[0]), comparable(wantLines[1]); !reflect.DeepEqual(g, w) {
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		t.Errorf("diagnostic differs\ngot:  %s\nwant: %s", gj, wj)
	}
	assertTerraformJSONReads(t, buf.Bytes())
}

// TestReplaceStreamMatchesTerraform replays the hooks of a
// create_before_destroy replacement, recorded in
// testdata/terraform-apply-cbd.jsonl (terraform 1.11 -json): the new
// object's create, then the deposed object's delete, each reported as such.
func TestReplaceStreamMatchesTerraform(t *testing.T) {
	const oldID, newID = "d9380067-f6aa-3236-fef6-0634765a0e99", "bd419d71-6963-238a-2356-65ed51566c4c"
	addr := resourceInstance(t, "terraform_data.r")
	var buf bytes.Buffer
	hook := NewHook(New(&buf), time.Hour)
	defer hook.Stop()
	planned := cty.UnknownVal(cty.DynamicPseudoType)
	hook.PreApply(addr, addrs.NotDeposed, plans.CreateThenDelete, terraformDataValue(oldID, "x"), planned)
	hook.PostApply(addr, addrs.NotDeposed, terraformDataValue(newID, "x"), nil)
	hook.PreApply(addr, "0a1b2c3d", plans.Delete, terraformDataValue(oldID, "x"), cty.NullVal(cty.DynamicPseudoType))
	hook.PostApply(addr, "0a1b2c3d", cty.NullVal(cty.DynamicPseudoType), nil)

	assertSameMessages(t, buf.Bytes(), "testdata/terraform-apply-cbd.jsonl")
}

// TestReadAndDeleteFirstReplaceStreamMatchesTerraform replays the hooks of
// a delete-first replacement and of a data source read at apply time,
// recorded in testdata/terraform-apply-read-replace.jsonl (terraform 1.11
// -json): the replacement is a delete then a create, the read an apply of
// action read worded as a refresh.
func TestReadAndDeleteFirstReplaceStreamMatchesTerraform(t *testing.T) {
	const oldID, newID, readID = "9d1ec25353ed350c", "dbd41c72470cbe13", "2be4585f3473e1fa"
	thing := func(id string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "name": cty.StringVal("df")})
	}
	none := cty.NullVal(cty.Object(map[string]cty.Type{"id": cty.String, "name": cty.String}))
	replaced, read := resourceInstance(t, "tpf_thing.replaced_delete_first"), resourceInstance(t, "data.tpf_thing.read_later")
	var buf bytes.Buffer
	hook := NewHook(New(&buf), time.Hour)
	defer hook.Stop()
	hook.PreApply(replaced, addrs.NotDeposed, plans.DeleteThenCreate, thing(oldID), none)
	hook.PostApply(replaced, addrs.NotDeposed, none, nil)
	hook.PreApply(replaced, addrs.NotDeposed, plans.DeleteThenCreate, thing(oldID), cty.UnknownVal(none.Type()))
	hook.PostApply(replaced, addrs.NotDeposed, thing(newID), nil)
	hook.PreApply(read, addrs.NotDeposed, plans.Read, none, none)
	hook.PostApply(read, addrs.NotDeposed, thing(readID), nil)

	assertSameMessages(t, buf.Bytes(), "testdata/terraform-apply-read-replace.jsonl")
}

// assertSameMessages compares a stream with one terraform wrote, message
// by message, as comparable leaves them, and returns the stream's messages.
func assertSameMessages(t *testing.T, stream []byte, terraformFile string) []map[string]any {
	t.Helper()
	want, err := os.ReadFile(terraformFile)
	if err != nil {
		t.Fatal(err)
	}
	got, wantLines := readLines(t, stream), readLines(t, want)
	if len(got) != len(wantLines) {
		t.Fatalf("%d messages, terraform wrote %d:\n%s", len(got), len(wantLines), stream)
	}
	for i := range got {
		if g, w := comparable(got[i]), asOpenTofuMessage(comparable(wantLines[i])); !reflect.DeepEqual(g, w) {
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(w)
			t.Errorf("message %d differs\ngot:  %s\nwant: %s", i+1, gj, wj)
		}
	}
	return got
}

func TestProgressAndErrors(t *testing.T) {
	var buf bytes.Buffer
	view := New(&buf)
	hook := NewHook(view, 20*time.Millisecond)
	addr := resourceInstance(t, `module.m["k"].terraform_data.x`)
	hook.PreApply(addr, addrs.NotDeposed, plans.Create, cty.NullVal(cty.DynamicPseudoType), cty.UnknownVal(cty.DynamicPseudoType))
	hook.PreApply(addr, "0a1b2c3d", plans.Delete, terraformDataValue("old", "v"), cty.NullVal(cty.DynamicPseudoType))
	time.Sleep(90 * time.Millisecond)
	hook.PostApply(addr, addrs.NotDeposed, cty.NilVal, errors.New("boom"))
	hook.PostApply(addr, "0a1b2c3d", cty.NullVal(cty.DynamicPseudoType), nil)
	time.Sleep(50 * time.Millisecond) // no progress may follow completion
	hook.Stop()

	lines := readLines(t, buf.Bytes())
	types := map[string]int{}
	for _, line := range lines {
		types[line["type"].(string)]++
	}
	if types["apply_start"] != 2 || types["apply_errored"] != 1 || types["apply_complete"] != 1 || types["apply_progress"] < 4 {
		t.Fatalf("message counts %v:\n%s", types, buf.String())
	}
	last := map[string]map[string]any{}
	for _, line := range lines {
		last[line["type"].(string)] = line
	}
	if msg := last["apply_errored"]["@message"]; msg != `module.m["k"].terraform_data.x: Creation errored after 0s` || last["apply_errored"]["@level"] != "info" { // every hook message is info, as in OpenTofu
		t.Errorf("errored message %v", last["apply_errored"])
	}
	// Terraform names a deposed object by its instance address alone.
	if msg := last["apply_complete"]["@message"]; msg != `module.m["k"].terraform_data.x: Destruction complete after 0s` {
		t.Errorf("complete message %v", msg)
	}
	resource := last["apply_start"]["hook"].(map[string]any)["resource"].(map[string]any)
	if resource["module"] != `module.m["k"]` || resource["resource_key"] != nil || resource["resource"] != "terraform_data.x" {
		t.Errorf("resource %v", resource)
	}
	if types["apply_progress"] > 0 && lines[len(lines)-1]["type"] == "apply_progress" {
		t.Errorf("progress written after the operations ended")
	}
}

func TestConcurrentMessagesStayWhole(t *testing.T) {
	var buf bytes.Buffer
	view := New(&buf)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				view.Log(LevelInfo, strings.Repeat("x", i*50))
			}
		}()
	}
	wg.Wait()
	if lines := readLines(t, buf.Bytes()); len(lines) != 1000 {
		t.Errorf("%d whole lines, want 1000", len(lines))
	}
}

func TestChangeSummaryWording(t *testing.T) {
	tests := []struct {
		summary ChangeSummary
		want    string
	}{
		{ChangeSummary{Add: 2, Operation: OperationPlan}, "Plan: 2 to add, 0 to change, 0 to destroy."},
		{ChangeSummary{Add: 1, Import: 1, Forget: 2, Operation: OperationPlan}, "Plan: 1 to import, 1 to add, 0 to change, 0 to destroy, 2 to forget."},
		{ChangeSummary{Add: 1, Change: 2, Remove: 3, Operation: OperationApply}, "Apply complete! Resources: 1 added, 2 changed, 3 destroyed."},
		{ChangeSummary{Remove: 3, Operation: OperationDestroy}, "Destroy complete! Resources: 3 destroyed."},
	}
	for _, test := range tests {
		if got := test.summary.message(); got != test.want {
			t.Errorf("%+v: %q, want %q", test.summary, got, test.want)
		}
	}
}

// TestVersionMessage starts a stream as OpenTofu does
// (internal/command/views/json_view.go, Version): "tofu" gives the OpenTofu
// version, here the one Terrane implements, and "ui" the format version.
func TestVersionMessage(t *testing.T) {
	var buf bytes.Buffer
	New(&buf).Version()
	msg := readLines(t, buf.Bytes())[0]
	if msg["type"] != "version" || msg["tofu"] != version.OpenTofuVersion || msg["ui"] != UIVersion || msg["terraform"] != nil {
		t.Errorf("version message %v", msg)
	}
}
