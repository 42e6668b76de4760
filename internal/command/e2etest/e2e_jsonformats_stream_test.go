package e2etest

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
)

// terraform-json decodes the version, log and diagnostic messages of the
// -json UI stream and keeps only "@level", "@message" and "@timestamp" of
// the others. Those others are checked against the message types of
// Terraform's machine-readable UI reference (format 1.2), written out
// below: a strict decoding into them, re-encoded, must give back the
// original message.

// uiResourceAddr is the "resource" of hooks and changes.
type uiResourceAddr struct {
	Addr            string `json:"addr"`
	Module          string `json:"module"`
	Resource        string `json:"resource"`
	ImpliedProvider string `json:"implied_provider"`
	ResourceType    string `json:"resource_type"`
	ResourceName    string `json:"resource_name"`
	ResourceKey     any    `json:"resource_key"`
}

// uiResourceChange is the "change" of planned_change and resource_drift.
type uiResourceChange struct {
	Resource         uiResourceAddr  `json:"resource"`
	PreviousResource *uiResourceAddr `json:"previous_resource,omitempty"`
	Action           string          `json:"action"`
	Reason           string          `json:"reason,omitempty"`
	Importing        *struct {
		ID string `json:"id,omitempty"`
	} `json:"importing,omitempty"`
	GeneratedConfig string `json:"generated_config,omitempty"`
}

// uiHook is the "hook" of apply_*, refresh_* and provision_* messages.
type uiHook struct {
	Resource       uiResourceAddr `json:"resource"`
	Action         string         `json:"action,omitempty"`
	IDKey          string         `json:"id_key,omitempty"`
	IDValue        string         `json:"id_value,omitempty"`
	ElapsedSeconds *json.Number   `json:"elapsed_seconds,omitempty"`
}

// uiChangeSummary is the "changes" of change_summary. "forget" is
// OpenTofu's count of objects removed from state without being destroyed,
// always written (internal/command/views/json/change_summary.go).
type uiChangeSummary struct {
	Add       int    `json:"add"`
	Change    int    `json:"change"`
	Import    int    `json:"import"`
	Remove    int    `json:"remove"`
	Forget    int    `json:"forget"`
	Operation string `json:"operation"`
}

// uiOutput is one output of an outputs message: after a plan its action,
// after an apply its type and (unless sensitive) value.
type uiOutput struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	Action    string          `json:"action,omitempty"`
}

// uiMessage is any message terraform-json does not decode in full; which
// payload property it carries depends on its type.
type uiMessage struct {
	Level     string              `json:"@level"`
	Message   string              `json:"@message"`
	Module    string              `json:"@module"`
	Timestamp string              `json:"@timestamp"`
	Type      string              `json:"type"`
	Change    *uiResourceChange   `json:"change,omitempty"`
	Hook      *uiHook             `json:"hook,omitempty"`
	Changes   *uiChangeSummary    `json:"changes,omitempty"`
	Outputs   map[string]uiOutput `json:"outputs,omitempty"`
}

// uiPayloads names the payload property of each documented message type
// terraform-json leaves undecoded.
var uiPayloads = map[string]string{
	"planned_change":   "change",
	"resource_drift":   "change",
	"change_summary":   "changes",
	"outputs":          "outputs",
	"apply_start":      "hook",
	"apply_progress":   "hook",
	"apply_complete":   "hook",
	"apply_errored":    "hook",
	"refresh_start":    "hook",
	"refresh_complete": "hook",
}

// streamLosses are the properties of the messages terraform-json decodes
// that its types have no field for.
var streamLosses = []knownLoss{
	{Pattern: "/@module", Why: "terraform-json's messages keep no @module"},
	{Pattern: "/type", Why: "terraform-json's messages keep their type only as the Go type"},
	{Pattern: "/diagnostic/difference", Optional: true, Why: "OpenTofu's diagnostics carry what a failed A == B compared, which terraform-json has no field for"},
}

// versionLosses are those of the version message besides streamLosses.
var versionLosses = []knownLoss{
	{Pattern: "/terrane", Why: "Terrane's own version beside the OpenTofu version it implements"},
	{Pattern: "/tofu", Why: "terraform-json's VersionLogMessage reads Terraform's \"terraform\", not OpenTofu's \"tofu\""},
	{Pattern: "/ui", Rewritten: true, Why: "go-version writes \"1.2\" back as \"1.2.0\""},
	{Pattern: "/terraform", Rewritten: true, Why: "go-version writes versions back in full (\"1.11\" as \"1.11.0\")", Optional: true},
}

// decodedUIMessage is one line of a -json stream: its type, as decoded by
// terraform-json, and, for the types terraform-json leaves undecoded, as
// decoded by the reference types above.
type decodedUIMessage struct {
	Type    string
	Library tfjson.LogMsg
	Message uiMessage
	Raw     []byte
}

// assertUIStream checks every line of a -json stream: terraform-json reads
// its level, message and time; version, log and diagnostic messages survive
// a round trip through terraform-json's types; the others decode strictly
// into the reference types and survive a round trip through them.
func assertUIStream(t *testing.T, what, stream string) []decodedUIMessage {
	t.Helper()
	var out []decodedUIMessage
	for i, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		where := what + " line " + strconv.Itoa(i+1)
		raw := normalizeTimestamp(t, where, []byte(line))
		library, err := tfjson.UnmarshalLogMessage(raw)
		if err != nil {
			t.Fatalf("%s: terraform-json cannot read it: %v\n%s", where, err, line)
		}
		var envelope uiMessage
		if err := json.Unmarshal(raw, &envelope); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if library.Level() != tfjson.LogMessageLevel(envelope.Level) || library.Message() != envelope.Message ||
			library.Timestamp().Format(time.RFC3339Nano) != envelope.Timestamp {
			t.Errorf("%s: terraform-json reads level %q, message %q, time %s from\n%s", where, library.Level(), library.Message(), library.Timestamp(), line)
		}
		if envelope.Module != "terrane.ui" {
			t.Errorf("%s: @module is %q, want terrane.ui", where, envelope.Module)
		}
		decoded := decodedUIMessage{Type: envelope.Type, Library: library, Raw: raw}
		switch library.(type) {
		case tfjson.VersionLogMessage:
			assertRoundTrip(t, where, raw, &tfjson.VersionLogMessage{}, append(versionLosses, streamLosses...)...)
		case tfjson.LogMessage:
			assertRoundTrip(t, where, raw, &tfjson.LogMessage{}, streamLosses...)
		case tfjson.DiagnosticLogMessage:
			assertRoundTrip(t, where, raw, &tfjson.DiagnosticLogMessage{}, streamLosses...)
		default:
			decoded.Message = assertReferenceMessage(t, where, raw, envelope.Type)
		}
		out = append(out, decoded)
	}
	return out
}

// assertReferenceMessage decodes a message terraform-json leaves undecoded
// strictly into the reference types, requiring exactly the payload its
// type documents, and compares its re-encoding with the original.
func assertReferenceMessage(t *testing.T, where string, raw []byte, messageType string) uiMessage {
	t.Helper()
	payload, known := uiPayloads[messageType]
	if !known {
		t.Errorf("%s: message type %q is not one Terraform documents\n%s", where, messageType, raw)
		return uiMessage{}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var msg uiMessage
	if err := dec.Decode(&msg); err != nil {
		t.Errorf("%s: not a documented %s message: %v\n%s", where, messageType, err, raw)
		return msg
	}
	properties := decodeJSONNumbers(t, where, raw).(map[string]any)
	for _, candidate := range []string{"change", "hook", "changes", "outputs"} {
		if _, has := properties[candidate]; has != (candidate == payload) {
			t.Errorf("%s: a %s message carries %q: %v", where, messageType, payload, has)
		}
	}
	reencoded, err := json.Marshal(msg)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	for _, d := range diffJSON("", properties, decodeJSONNumbers(t, where, reencoded)) {
		t.Errorf("%s: the %s message does not survive a round trip through the documented format: %s", where, messageType, d)
	}
	return msg
}

// normalizeTimestamp rewrites "@timestamp" as Go's RFC 3339 encoding of
// the same instant, so that a time re-encoded by terraform-json compares
// equal whatever trailing zeros the original had; it fails the test if
// the time is not RFC 3339.
func normalizeTimestamp(t *testing.T, where string, line []byte) []byte {
	t.Helper()
	msg, ok := decodeJSONNumbers(t, where, line).(map[string]any)
	if !ok {
		t.Fatalf("%s: not a JSON object: %s", where, line)
	}
	stamp, _ := msg["@timestamp"].(string)
	parsed, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		t.Fatalf("%s: @timestamp %q is not RFC 3339: %v", where, stamp, err)
	}
	msg["@timestamp"] = parsed.Format(time.RFC3339Nano)
	out, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func messageTypes(messages []decodedUIMessage) []string {
	out := make([]string, len(messages))
	for i, msg := range messages {
		out[i] = msg.Type
	}
	return out
}

// messagesOf returns the messages of one type.
func messagesOf(messages []decodedUIMessage, messageType string) []decodedUIMessage {
	var out []decodedUIMessage
	for _, msg := range messages {
		if msg.Type == messageType {
			out = append(out, msg)
		}
	}
	return out
}

// checkUIStreams checks the -json streams of apply, plan, refresh and
// destroy in the scenario: every message survives a round trip, and the
// messages come in the order a user sees them.
func checkUIStreams(t *testing.T, run *jsonFormatsRun) {
	streams := map[string][]decodedUIMessage{}
	for _, step := range []string{stepApplyV1, stepApplyNoop, stepPlanV2, stepApplyV2, stepRefresh, stepDestroy} {
		streams[step] = assertUIStream(t, step, run.outputs[step])
		if types := messageTypes(streams[step]); len(types) == 0 || types[0] != "version" {
			t.Errorf("%s does not start with a version message: %v", step, types)
		}
		version := streams[step][0].Library.(tfjson.VersionLogMessage)
		var tofu struct {
			Version string `json:"tofu"`
		}
		if err := json.Unmarshal(streams[step][0].Raw, &tofu); err != nil || version.UI == nil || version.UI.Original() != "1.2" || tofu.Version == "" {
			t.Errorf("%s: version message has ui %v, tofu %q", step, version.UI, tofu.Version)
		}
	}

	t.Run("apply", func(t *testing.T) { checkApplyStream(t, streams[stepApplyV1]) })
	t.Run("apply without changes", func(t *testing.T) { checkNoopApplyStream(t, streams[stepApplyNoop]) })
	t.Run("plan", func(t *testing.T) { checkPlanStream(t, streams[stepPlanV2]) })
	t.Run("apply saved plan", func(t *testing.T) { checkSavedPlanApplyStream(t, streams[stepApplyV2]) })
	t.Run("refresh", func(t *testing.T) { checkRefreshStream(t, streams[stepRefresh]) })
	t.Run("destroy", func(t *testing.T) { checkDestroyStream(t, streams[stepDestroy]) })
}

// checkApplyStream checks the apply of v1: its plan, one create per object,
// the outputs with values, the failing check's warning once.
func checkApplyStream(t *testing.T, messages []decodedUIMessage) {
	types := messageTypes(messages)
	assertOrder(t, stepApplyV1, types, "version", "planned_change", "change_summary", "apply_start", "apply_complete", "change_summary", "outputs")
	summaries := messagesOf(messages, "change_summary")
	if got := summaries[len(summaries)-1].Message.Changes; got == nil || got.Operation != "apply" || got.Add != 12 {
		t.Errorf("the apply's last change summary: %+v, want 12 added by apply", got)
	}
	for _, messageType := range []string{"apply_start", "apply_complete"} {
		var created []string
		for _, msg := range messagesOf(messages, messageType) {
			if msg.Message.Hook.Action == "create" {
				created = append(created, msg.Message.Hook.Resource.Addr)
			}
		}
		if len(created) != 12 {
			t.Errorf("%d %s messages for creates, want one per managed object (12): %v", len(created), messageType, created)
		}
	}
	outputs := messagesOf(messages, "outputs")
	final := outputs[len(outputs)-1].Message.Outputs
	if hidden := final["hidden"]; !hidden.Sensitive || hidden.Value != nil || string(hidden.Type) != `"string"` {
		t.Errorf("the sensitive output after apply: %+v, want its type and no value", hidden)
	}
	// The failing check warns once: the apply evaluates it again, so
	// the plan's warning is not repeated.
	if warnings := messagesOf(messages, "diagnostic"); len(warnings) != 1 {
		t.Errorf("apply -json writes %d diagnostics, want the failing check's warning once:\n%s", len(warnings), messagesRaw(warnings))
	}
	if number := final["number"]; string(number.Value) != "42" || string(number.Type) != `"number"` {
		t.Errorf("the number output after apply: %+v", number)
	}
}

// checkNoopApplyStream checks an apply with nothing to do: as Terraform's,
// it ends with an apply summary counting nothing and the outputs.
func checkNoopApplyStream(t *testing.T, messages []decodedUIMessage) {
	assertOrder(t, stepApplyNoop, messageTypes(messages), "version", "change_summary", "outputs", "diagnostic", "change_summary", "outputs")
	summaries := messagesOf(messages, "change_summary")
	if last := summaries[len(summaries)-1].Message; last.Message != "Apply complete! Resources: 0 added, 0 changed, 0 destroyed." || last.Changes.Operation != "apply" {
		t.Errorf("the summary of an apply with nothing to do: %q %+v", last.Message, last.Changes)
	}
	outputs := messagesOf(messages, "outputs")
	if number := outputs[len(outputs)-1].Message.Outputs["number"]; string(number.Value) != "42" {
		t.Errorf("the number output after an apply with nothing to do: %+v", number)
	}
}

// checkPlanStream checks the plan of v2: each kind of change, drift, the
// summary, the check warnings and the data source read while planning.
func checkPlanStream(t *testing.T, messages []decodedUIMessage) {
	assertOrder(t, stepPlanV2, messageTypes(messages), "version", "refresh_start", "refresh_complete", "resource_drift", "planned_change", "change_summary", "outputs")
	changes := map[string]uiResourceChange{}
	for _, msg := range messagesOf(messages, "planned_change") {
		changes[msg.Message.Change.Resource.Addr] = *msg.Message.Change
	}
	for addr, want := range map[string]string{
		"tpf_thing.fresh": "create", "tpf_thing.updated": "update", "tpf_thing.replaced_cbd": "replace",
		"tpf_thing.replaced_delete_first": "replace", "tpf_thing.doomed": "delete", "tpf_thing.new_name": "move",
		"tpf_thing.adopted": "import", "data.tpf_thing.read_later": "read",
	} {
		if changes[addr].Action != want {
			t.Errorf("planned_change for %s: action %q, want %q", addr, changes[addr].Action, want)
		}
	}
	if _, listed := changes["tpf_thing.counted[0]"]; listed {
		t.Error("an object without changes has a planned_change message")
	}
	if prev := changes["tpf_thing.new_name"].PreviousResource; prev == nil || prev.Addr != "tpf_thing.old_name" {
		t.Errorf("the moved object's previous_resource: %+v", prev)
	}
	if imp := changes["tpf_thing.adopted"].Importing; imp == nil || imp.ID == "" {
		t.Errorf("the imported object's importing: %+v", imp)
	}
	if reason := changes["tpf_thing.doomed"].Reason; reason != "delete_because_no_resource_config" {
		t.Errorf("the deleted object's reason: %q", reason)
	}
	drift := messagesOf(messages, "resource_drift")
	if len(drift) != 1 || drift[0].Message.Change.Resource.Addr != "tpf_thing.drifted" {
		t.Errorf("resource_drift messages: %d, want one for tpf_thing.drifted", len(drift))
	}
	summary := messagesOf(messages, "change_summary")[0].Message.Changes
	if want := (uiChangeSummary{Add: 3, Change: 3, Import: 1, Remove: 3, Operation: "plan"}); summary == nil || *summary != want {
		t.Errorf("plan change summary: %+v, want %+v", summary, want)
	}
	assertCheckWarning(t, stepPlanV2, messages)
	assertPendingCheckWarning(t, stepPlanV2, messages)
	// A data source read while planning is reported as Terraform
	// reports it, as an apply of action read.
	assertHookSteps(t, stepPlanV2, messages, "data.tpf_thing.read_stable", "read")
}

// checkSavedPlanApplyStream checks the apply of the saved v2 plan: its
// planned changes first, each replacement as its steps, the reads at apply,
// the summary counting the import.
func checkSavedPlanApplyStream(t *testing.T, messages []decodedUIMessage) {
	assertOrder(t, stepApplyV2, messageTypes(messages), "version", "planned_change", "apply_start", "apply_complete", "diagnostic", "change_summary", "outputs")
	// The saved plan's changes come first, those with an action only.
	planned := map[string]string{}
	for _, msg := range messagesOf(messages, "planned_change") {
		planned[msg.Message.Change.Resource.Addr] = msg.Message.Change.Action
	}
	want := map[string]string{
		"tpf_thing.fresh": "create", "tpf_thing.updated": "update", "tpf_thing.drifted": "update", "tpf_thing.secret": "update",
		"tpf_thing.replaced_cbd": "replace", "tpf_thing.replaced_delete_first": "replace", "tpf_thing.doomed": "delete",
		"data.tpf_thing.read_later": "read", "data.tpf_thing.read_now": "read",
	}
	if !maps.Equal(planned, want) {
		t.Errorf("planned_change messages of the saved plan: %v, want %v", planned, want)
	}
	// A delete-first replacement is its two steps, a delete then a
	// create; a data source read at apply time is an apply of action
	// read.
	assertHookSteps(t, stepApplyV2, messages, "tpf_thing.replaced_delete_first", "delete", "create")
	assertHookSteps(t, stepApplyV2, messages, "data.tpf_thing.read_later", "read")
	// One the plan read is not read again: the plan carries its result.
	assertHookSteps(t, stepApplyV2, messages, "data.tpf_thing.read_stable")
	// As in Terraform, a create_before_destroy replacement is reported
	// as its steps: the new object's create, then the old one's delete.
	var cbdSteps []string
	for _, msg := range messagesOf(messages, "apply_start") {
		if msg.Message.Hook.Resource.Addr == "tpf_thing.replaced_cbd" {
			cbdSteps = append(cbdSteps, msg.Message.Hook.Action)
		}
	}
	if !slices.Equal(cbdSteps, []string{"create", "delete"}) {
		t.Errorf("apply_start actions of the create_before_destroy replacement: %v, want [create delete]", cbdSteps)
	}
	summary := messagesOf(messages, "change_summary")[0].Message.Changes
	if want := (uiChangeSummary{Add: 3, Change: 3, Import: 1, Remove: 3, Operation: "apply"}); summary == nil || *summary != want {
		t.Errorf("apply change summary: %+v, want %+v", summary, want)
	}
	if got := messagesOf(messages, "change_summary")[0].Message.Message; got != "Apply complete! Resources: 1 imported, 3 added, 3 changed, 3 destroyed." {
		t.Errorf("apply change summary message: %q", got)
	}
}

// checkRefreshStream checks refresh -json: no plan, no summary, the outputs
// with values.
func checkRefreshStream(t *testing.T, messages []decodedUIMessage) {
	assertOrder(t, stepRefresh, messageTypes(messages), "version", "refresh_start", "refresh_complete", "diagnostic", "outputs")
	// As terraform refresh -json: no plan, no summary, and the
	// outputs with their values.
	for _, messageType := range []string{"planned_change", "change_summary", "resource_drift"} {
		if unexpected := messagesOf(messages, messageType); len(unexpected) > 0 {
			t.Errorf("refresh -json writes %s messages:\n%s", messageType, messagesRaw(unexpected))
		}
	}
	outputs := messagesOf(messages, "outputs")
	if len(outputs) != 1 {
		t.Fatalf("refresh -json writes %d outputs messages, want 1", len(outputs))
	}
	final := outputs[0].Message.Outputs
	if number := final["number"]; string(number.Value) != "43" || string(number.Type) != `"number"` || number.Action != "" {
		t.Errorf("the number output after refresh: %+v, want its value and type", number)
	}
	if hidden := final["hidden"]; !hidden.Sensitive || hidden.Value != nil || string(hidden.Type) != `"string"` {
		t.Errorf("the sensitive output after refresh: %+v, want its type and no value", hidden)
	}
	for _, msg := range messagesOf(messages, "refresh_complete") {
		if hook := msg.Message.Hook; hook.IDKey != "id" || hook.IDValue == "" {
			t.Errorf("refresh_complete of %s names no id: %+v", hook.Resource.Addr, hook)
		}
	}
}

// checkDestroyStream checks destroy -json: the plan's summary, then the
// destroy's, the sensitive output kept sensitive, no check warnings.
func checkDestroyStream(t *testing.T, messages []decodedUIMessage) {
	assertOrder(t, stepDestroy, messageTypes(messages), "version", "planned_change", "apply_start", "apply_complete", "change_summary")
	summaries := messagesOf(messages, "change_summary")
	if len(summaries) != 2 {
		t.Fatalf("destroy -json writes %d change summaries, want the plan's and the destroy's", len(summaries))
	}
	if got := summaries[0].Message; got.Changes.Operation != "plan" || got.Message != "Plan: 0 to add, 0 to change, 12 to destroy." {
		t.Errorf("destroy's plan summary: %q %+v", got.Message, got.Changes)
	}
	if got := summaries[1].Message; got.Changes.Operation != "destroy" || got.Message != "Destroy complete! Resources: 12 destroyed." {
		t.Errorf("destroy's last change summary: %q %+v", got.Message, got.Changes)
	}
	if hidden := messagesOf(messages, "outputs")[0].Message.Outputs["hidden"]; !hidden.Sensitive || hidden.Action != "delete" {
		t.Errorf("destroy plans the sensitive output as %+v, want a sensitive delete", hidden)
	}
	// A destroy evaluates no check block, so it warns of none.
	if warnings := messagesOf(messages, "diagnostic"); len(warnings) > 0 {
		t.Errorf("destroy -json writes diagnostics:\n%s", messagesRaw(warnings))
	}
	for _, msg := range messagesOf(messages, "planned_change") {
		if msg.Message.Change.Action != "delete" {
			t.Errorf("destroy plans %s for %s", msg.Message.Change.Action, msg.Message.Change.Resource.Addr)
		}
	}
}

// assertCheckWarning requires the failing check block's warning, with the
// range of its condition.
func assertCheckWarning(t *testing.T, what string, messages []decodedUIMessage) {
	t.Helper()
	for _, msg := range messagesOf(messages, "diagnostic") {
		diag := msg.Library.(tfjson.DiagnosticLogMessage).Diagnostic
		// As in OpenTofu, the warning names no address: it is found by
		// its summary and its condition's snippet.
		if diag.Severity != tfjson.DiagnosticSeverityWarning || diag.Summary != "Check block assertion failed" ||
			diag.Snippet == nil || !strings.Contains(diag.Snippet.Code, `tpf_thing.updated.description == "something else"`) {
			continue
		}
		if diag.Range == nil || diag.Range.Filename != "main.tf" || diag.Range.Start.Line == 0 || diag.Snippet == nil ||
			!strings.Contains(diag.Snippet.Code, `tpf_thing.updated.description == "something else"`) {
			t.Errorf("%s: the failing check's warning lacks its range or snippet: %s", what, msg.Raw)
		}
		return
	}
	t.Errorf("%s has no warning for the failing check block", what)
}

// assertPendingCheckWarning requires the warning of a check block whose
// condition is known only after apply, with the range of its condition.
func assertPendingCheckWarning(t *testing.T, what string, messages []decodedUIMessage) {
	t.Helper()
	for _, msg := range messagesOf(messages, "diagnostic") {
		diag := msg.Library.(tfjson.DiagnosticLogMessage).Diagnostic
		if diag.Summary != "Check block assertion known after apply" {
			continue
		}
		if diag.Severity != tfjson.DiagnosticSeverityWarning || diag.Snippet == nil || !strings.Contains(diag.Snippet.Code, `tpf_thing.fresh.id != ""`) {
			t.Errorf("%s: the pending check's warning: %s", what, msg.Raw)
		}
		return
	}
	t.Errorf("%s has no warning for the check block known only after apply", what)
}

// assertHookSteps requires the apply_start and the apply_complete messages
// of one object to report exactly the actions wanted, in that order.
func assertHookSteps(t *testing.T, what string, messages []decodedUIMessage, addr string, actions ...string) {
	t.Helper()
	for _, messageType := range []string{"apply_start", "apply_complete"} {
		var got []string
		for _, msg := range messagesOf(messages, messageType) {
			if msg.Message.Hook.Resource.Addr == addr {
				got = append(got, msg.Message.Hook.Action)
			}
		}
		if !slices.Equal(got, actions) {
			t.Errorf("%s: %s actions of %s: %v, want %v", what, messageType, addr, got, actions)
		}
	}
}

// assertOrder requires the wanted message types to appear in types in
// this order (other messages may come between them).
func assertOrder(t *testing.T, what string, types []string, wanted ...string) {
	t.Helper()
	next := 0
	for _, messageType := range types {
		if next < len(wanted) && messageType == wanted[next] {
			next++
		}
	}
	if next < len(wanted) {
		t.Errorf("%s: expected messages %v in order; %q is missing after %v; got %v", what, wanted, wanted[next], wanted[:next], types)
	}
}

// TestE2EJSONFormatsFailures checks the -json output of runs that fail: an
// apply whose provider rejects one object, and a configuration validation
// rejects, through validate -json and plan -json.
func TestE2EJSONFormatsFailures(t *testing.T) {
	t.Parallel()
	failing, invalid := readJSONFormatsConfig(t, "failing.tf"), readJSONFormatsConfig(t, "invalid.tf")
	p := newE2EProject(t, failing)

	out, _, code := p.run("apply", "-json", "-auto-approve")
	if code != 1 {
		t.Fatalf("apply with a failing provider call: exit %d, want 1\n%s", code, out)
	}
	messages := assertUIStream(t, "apply -json (failing)", out)
	assertOrder(t, "apply -json (failing)", messageTypes(messages), "version", "planned_change", "change_summary", "apply_start", "apply_errored", "diagnostic")
	errored := messagesOf(messages, "apply_errored")
	if len(errored) != 1 || errored[0].Message.Hook.Resource.Addr != "tpf_thing.broken" || errored[0].Message.Hook.Action != "create" {
		t.Errorf("apply_errored messages: %s", messagesRaw(errored))
	}
	if completed := messagesOf(messages, "apply_complete"); len(completed) != 1 || completed[0].Message.Hook.Resource.Addr != "tpf_thing.fine" {
		t.Errorf("apply_complete messages: %s", messagesRaw(completed))
	}
	// As in Terraform, the provider's error points at the argument it
	// names (fail = "apply_error", line 15).
	if !hasErrorDiagnostic(messages, func(d tfjson.Diagnostic) bool {
		return d.Address == "tpf_thing.broken" && d.Range != nil && d.Range.Start.Line == 15 &&
			d.Snippet != nil && strings.Contains(d.Snippet.Code, `fail = "apply_error"`)
	}) {
		t.Errorf("no error diagnostic naming tpf_thing.broken and pointing at its fail argument:\n%s", out)
	}

	p.write(invalid)
	out, _, code = p.run("validate", "-json")
	if code != 1 {
		t.Fatalf("validate -json of an invalid configuration: exit %d, want 1\n%s", code, out)
	}
	var validation tfjson.ValidateOutput
	assertRoundTrip(t, "validate -json (invalid)", []byte(out), &validation)
	if validation.Valid || validation.ErrorCount != 1 || len(validation.Diagnostics) != 1 {
		t.Fatalf("validate -json of an invalid configuration:\n%s", out)
	}
	assertRangeOnColour(t, "validate -json", validation.Diagnostics[0])

	out, _, code = p.run("plan", "-json")
	if code != 1 {
		t.Fatalf("plan -json of an invalid configuration: exit %d, want 1\n%s", code, out)
	}
	messages = assertUIStream(t, "plan -json (invalid)", out)
	assertOrder(t, "plan -json (invalid)", messageTypes(messages), "version", "diagnostic")
	if !hasErrorDiagnostic(messages, func(d tfjson.Diagnostic) bool { assertRangeOnColour(t, "plan -json", d); return true }) {
		t.Errorf("plan -json of an invalid configuration has no error diagnostic:\n%s", out)
	}
}

// assertRangeOnColour requires a diagnostic to point at the "colour"
// argument of invalid.tf.
func assertRangeOnColour(t *testing.T, what string, d tfjson.Diagnostic) {
	t.Helper()
	if d.Severity != tfjson.DiagnosticSeverityError || d.Range == nil || d.Range.Filename != "main.tf" || d.Range.Start.Line != 15 ||
		d.Snippet == nil || !strings.Contains(d.Snippet.Code, "colour") {
		t.Errorf("%s: the diagnostic does not point at main.tf line 15 (colour): %+v range %+v", what, d, d.Range)
	}
}

func hasErrorDiagnostic(messages []decodedUIMessage, match func(tfjson.Diagnostic) bool) bool {
	for _, msg := range messagesOf(messages, "diagnostic") {
		diag := msg.Library.(tfjson.DiagnosticLogMessage)
		if diag.Level() == tfjson.Error && diag.Diagnostic.Severity == tfjson.DiagnosticSeverityError && match(diag.Diagnostic) {
			return true
		}
	}
	return false
}

func messagesRaw(messages []decodedUIMessage) string {
	lines := make([]string, len(messages))
	for i, msg := range messages {
		lines[i] = string(msg.Raw)
	}
	return strings.Join(lines, "\n")
}
