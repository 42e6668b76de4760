package e2etest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
)

// jsonFormatsRun is what the JSON formats scenario produced: every JSON
// document and -json stream, by the step that printed it.
type jsonFormatsRun struct {
	p       *e2eProject
	outputs map[string]string
}

// jsonFormatsSteps name the scenario's outputs.
const (
	stepValidate   = "validate -json"
	stepApplyV1    = "apply -json (v1)"
	stepStateV1    = "show -json (state after v1)"
	stepApplyNoop  = "apply -json (v1 again, no changes)"
	stepPlanV2     = "plan -json -out (v2)"
	stepShowPlanV2 = "show -json PLANFILE (v2)"
	stepApplyV2    = "apply -json PLANFILE (v2)"
	stepStateV2    = "show -json (state after v2)"
	stepListV2     = "state list (after v2)"
	stepPullV2     = "state pull (after v2)"
	stepRefresh    = "refresh -json"
	stepDestroy    = "destroy -json"
	stepStateEmpty = "show -json (state after destroy)"
)

// runJSONFormatsScenario applies testdata/jsonformats/v1.tf, changes the
// cloud and the state behind the configuration's back (drift, a forgotten
// object to import), plans v2.tf into a saved plan and applies it, then
// refreshes and destroys, keeping every show -json document and -json
// stream along the way.
func runJSONFormatsScenario(t *testing.T) *jsonFormatsRun {
	t.Helper()
	v1, v2 := readJSONFormatsConfig(t, "v1.tf"), readJSONFormatsConfig(t, "v2.tf")
	p := newE2EProject(t, v1)
	run := &jsonFormatsRun{p: p, outputs: map[string]string{}}
	run.outputs[stepValidate] = p.mustRun("validate", "-json")
	run.outputs[stepApplyV1] = p.mustRun("apply", "-json", "-auto-approve")
	run.outputs[stepStateV1] = p.mustRun("show", "-json")
	run.outputs[stepApplyNoop] = p.mustRun("apply", "-json", "-auto-approve")

	orphanID := p.objects("tpf_thing")["orphan"].attrs["id"].(string)
	p.mustRun("state", "rm", "tpf_thing.orphan")
	p.editObject(p.objects("tpf_thing")["drifted"], func(attrs map[string]any) {
		attrs["description"] = "changed outside"
	})

	p.write(v2)
	orphanVar := "orphan_id=" + orphanID
	run.outputs[stepPlanV2] = p.mustRun("plan", "-json", "-out=v2.tfplan", "-var", orphanVar)
	run.outputs[stepShowPlanV2] = p.mustRun("show", "-json", "v2.tfplan")
	run.outputs[stepApplyV2] = p.mustRun("apply", "-json", "v2.tfplan")
	run.outputs[stepStateV2] = p.mustRun("show", "-json")
	run.outputs[stepListV2] = p.mustRun("state", "list")
	run.outputs[stepPullV2] = p.mustRun("state", "pull")
	run.outputs[stepRefresh] = p.mustRun("refresh", "-json", "-var", orphanVar)
	run.outputs[stepDestroy] = p.mustRun("destroy", "-json", "-auto-approve", "-var", orphanVar)
	run.outputs[stepStateEmpty] = p.mustRun("show", "-json")
	return run
}

func readJSONFormatsConfig(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "jsonformats", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// planLosses are the plan properties OpenTofu writes (format 1.2) that
// terraform-json's Plan has no field for.
var planLosses = []knownLoss{
	{Pattern: "/errored", Why: "terraform-json's Plan has no Errored field"},
	{Pattern: "/configuration/root_module/variables/*/type", Why: "terraform-json's ConfigVariable has no Type field (OpenTofu 1.11 added it)"},
	{Pattern: "/configuration/root_module/variables/*/required", Why: "terraform-json's ConfigVariable has no Required field (OpenTofu 1.11 added it)"},
	{Pattern: "/resource_changes/*/change/after", Why: "a delete's after is null, and Change.After is omitempty", NullOnly: true},
	{Pattern: "/output_changes/*/after", Why: "a null output's after, and Change.After is omitempty", Optional: true, NullOnly: true},
	{Pattern: "/planned_values/outputs/*/value", Why: "a null output's value, and StateOutput.Value is omitempty", Optional: true, NullOnly: true},
}

// TestE2EJSONFormats runs the scenario once and checks every document and
// -json stream it printed: each survives a round trip through
// terraform-json's types (or, for UI messages terraform-json does not
// decode, through the documented message format), and says what Terraform
// would say about each kind of change.
func TestE2EJSONFormats(t *testing.T) {
	t.Parallel()
	run := runJSONFormatsScenario(t)

	t.Run("state round trip", func(t *testing.T) {
		for _, step := range []string{stepStateV1, stepStateV2, stepStateEmpty} {
			var state tfjson.State
			state.UseJSONNumber(true)
			assertRoundTrip(t, step, []byte(run.outputs[step]), &state)
			if err := state.Validate(); err != nil {
				t.Errorf("%s: %v", step, err)
			}
		}
	})
	t.Run("plan round trip", func(t *testing.T) {
		var plan tfjson.Plan
		plan.UseJSONNumber(true)
		assertRoundTrip(t, stepShowPlanV2, []byte(run.outputs[stepShowPlanV2]), &plan, planLosses...)
		if err := plan.Validate(); err != nil {
			t.Error(err)
		}
	})
	t.Run("validate round trip", func(t *testing.T) {
		var out tfjson.ValidateOutput
		assertRoundTrip(t, stepValidate, []byte(run.outputs[stepValidate]), &out)
		if !out.Valid || out.ErrorCount != 0 {
			t.Errorf("validate -json of a valid configuration: %s", run.outputs[stepValidate])
		}
	})
	t.Run("plan changes", func(t *testing.T) { checkPlanChanges(t, run) })
	t.Run("plan sensitive values", func(t *testing.T) { checkPlanSensitive(t, run) })
	t.Run("plan outputs", func(t *testing.T) { checkPlanOutputs(t, run) })
	t.Run("plan prior state", func(t *testing.T) { checkPlanPriorState(t, run) })
	t.Run("checks", func(t *testing.T) { checkCheckResults(t, run) })
	t.Run("state values", func(t *testing.T) { checkStateValues(t, run) })
	t.Run("state data sources", func(t *testing.T) { checkStateDataSources(t, run) })
	t.Run("state checks", func(t *testing.T) { checkStateCheckResults(t, run) })
	t.Run("UI streams", func(t *testing.T) { checkUIStreams(t, run) })
}

// planDocument decodes the saved plan's JSON with terraform-json and as
// plain data, for the semantic checks.
func planDocument(t *testing.T, run *jsonFormatsRun) (*tfjson.Plan, any) {
	t.Helper()
	raw := []byte(run.outputs[stepShowPlanV2])
	var plan tfjson.Plan
	if err := json.Unmarshal(raw, &plan); err != nil {
		t.Fatal(err)
	}
	return &plan, decodeJSONNumbers(t, stepShowPlanV2, raw)
}

func resourceChangesByAddress(changes []*tfjson.ResourceChange) map[string]*tfjson.ResourceChange {
	out := map[string]*tfjson.ResourceChange{}
	for _, change := range changes {
		out[change.Address] = change
	}
	return out
}

// checkPlanChanges asserts the kind of every planned change: the actions,
// the reasons, moves, imports, replace paths and drift.
func checkPlanChanges(t *testing.T, run *jsonFormatsRun) {
	plan, _ := planDocument(t, run)
	changes := resourceChangesByAddress(plan.ResourceChanges)
	want := []struct {
		address string
		actions tfjson.Actions
		reason  tfjson.ActionReason
	}{
		{"tpf_thing.fresh", tfjson.Actions{tfjson.ActionCreate}, ""},
		{"tpf_thing.updated", tfjson.Actions{tfjson.ActionUpdate}, ""},
		{"tpf_thing.replaced_cbd", tfjson.Actions{tfjson.ActionCreate, tfjson.ActionDelete}, tfjson.ActionReasonReplaceBecauseCannotUpdate},
		{"tpf_thing.replaced_delete_first", tfjson.Actions{tfjson.ActionDelete, tfjson.ActionCreate}, tfjson.ActionReasonReplaceBecauseCannotUpdate},
		{"tpf_thing.doomed", tfjson.Actions{tfjson.ActionDelete}, tfjson.ActionReasonDeleteBecauseNoResourceConfig},
		{"tpf_thing.drifted", tfjson.Actions{tfjson.ActionUpdate}, ""},
		{"tpf_thing.new_name", tfjson.Actions{tfjson.ActionNoop}, ""},
		{"tpf_thing.adopted", tfjson.Actions{tfjson.ActionNoop}, ""},
		{"tpf_thing.counted[0]", tfjson.Actions{tfjson.ActionNoop}, ""},
		{"data.tpf_thing.read_later", tfjson.Actions{tfjson.ActionRead}, tfjson.ActionReasonReadBecauseConfigUnknown},
		{"data.tpf_thing.read_now", tfjson.Actions{tfjson.ActionRead}, tfjson.ActionReasonReadBecauseDependencyPending},
	}
	for _, w := range want {
		change, ok := changes[w.address]
		if !ok {
			t.Errorf("no resource change for %s", w.address)
			continue
		}
		if !reflect.DeepEqual(change.Change.Actions, w.actions) || change.ActionReason != w.reason {
			t.Errorf("%s: actions %v, reason %q; want %v, %q", w.address, change.Change.Actions, change.ActionReason, w.actions, w.reason)
		}
	}
	// A data source whose configuration is known and whose dependencies are
	// unchanged is read during planning: it is not a change.
	if _, ok := changes["data.tpf_thing.read_stable"]; ok {
		t.Error("data.tpf_thing.read_stable was read during planning but is listed as a change")
	}

	if got := changes["tpf_thing.new_name"].PreviousAddress; got != "tpf_thing.old_name" {
		t.Errorf("the moved object's previous_address is %q, want tpf_thing.old_name", got)
	}
	if imp := changes["tpf_thing.adopted"].Change.Importing; imp == nil || imp.ID == "" {
		t.Errorf("the imported object has no importing.id: %+v", imp)
	}
	if got := changes["tpf_thing.replaced_cbd"].Change.ReplacePaths; !reflect.DeepEqual(got, []any{[]any{"name"}}) {
		t.Errorf("replace_paths of the replaced object: %v, want [[name]]", got)
	}
	if after := changes["tpf_thing.fresh"].Change.AfterUnknown.(map[string]any); after["id"] != true {
		t.Errorf("a created object's id is not in after_unknown: %v", after)
	}
	readLater := changes["data.tpf_thing.read_later"].Change
	for _, attr := range []string{"id", "name", "tags"} {
		if readLater.AfterUnknown.(map[string]any)[attr] != true {
			t.Errorf("a data source read at apply time does not say its %s is unknown: %v", attr, readLater.AfterUnknown)
		}
	}

	drift := resourceChangesByAddress(plan.ResourceDrift)
	if len(drift) != 1 || drift["tpf_thing.drifted"] == nil {
		t.Fatalf("resource_drift should hold tpf_thing.drifted alone: %v", sortedNames(drift))
	}
	drifted := drift["tpf_thing.drifted"].Change
	if before, after := drifted.Before.(map[string]any)["description"], drifted.After.(map[string]any)["description"]; before != "as configured" || after != "changed outside" {
		t.Errorf("drift of tpf_thing.drifted: description %v -> %v, want \"as configured\" -> \"changed outside\"", before, after)
	}
	// OpenTofu's plan format has neither of Terraform's "applyable" and
	// "complete" (internal/command/jsonplan/plan.go, Plan).
	if plan.Complete != nil || plan.Timestamp == "" {
		t.Errorf("a plan should say when it was made and not whether it is complete: complete %v, timestamp %q", plan.Complete, plan.Timestamp)
	}
	if strings.Contains(run.outputs[stepShowPlanV2], `"applyable"`) {
		t.Errorf("the plan says whether it is applyable, which OpenTofu's format does not")
	}
}

// checkPlanSensitive asserts that schema-sensitive attributes, values
// marked in configuration and sensitive variables are flagged in the
// sensitive mirrors while the values themselves are written, as Terraform
// does.
func checkPlanSensitive(t *testing.T, run *jsonFormatsRun) {
	_, doc := planDocument(t, run)
	changes := jsonAt(t, doc, "/resource_changes").([]any)
	var secret map[string]any
	for _, change := range changes {
		if change.(map[string]any)["address"] == "tpf_thing.secret" {
			secret = change.(map[string]any)["change"].(map[string]any)
		}
	}
	if secret == nil {
		t.Fatal("no change for tpf_thing.secret")
	}
	wantSensitive := map[string]any{"secret": true, "password_wo": true, "description": true, "tags": map[string]any{"hidden": true}}
	for _, mirror := range []string{"before_sensitive", "after_sensitive"} {
		if got := secret[mirror]; !reflect.DeepEqual(got, wantSensitive) {
			t.Errorf("tpf_thing.secret %s = %s, want %s", mirror, compactJSON(got), compactJSON(wantSensitive))
		}
	}
	if after := secret["after"].(map[string]any); after["secret"] != "hunter3" || after["tags"].(map[string]any)["plain"] != "visible" {
		t.Errorf("tpf_thing.secret's after value should carry the values beside the mirror: %s", compactJSON(after))
	}
	prior := jsonAt(t, doc, "/prior_state/values/root_module/resources")
	for _, res := range prior.([]any) {
		res := res.(map[string]any)
		if res["address"] == "tpf_thing.secret" && !reflect.DeepEqual(res["sensitive_values"], wantSensitive) {
			t.Errorf("prior state sensitive_values of tpf_thing.secret = %s", compactJSON(res["sensitive_values"]))
		}
	}
	if jsonAt(t, doc, "/configuration/root_module/variables/note/sensitive") != true {
		t.Error("the sensitive variable is not marked sensitive in the configuration")
	}
	checkReplacementSensitive(t, doc)
}

// checkReplacementSensitive asserts what OpenTofu (and Terraform) show of
// a replacement's schema-sensitive attributes: the change's after_sensitive
// names them, the planned values' sensitive_values do not (the new object
// is planned a second time and recorded with the configuration's marks
// only), while an update keeps them in both.
func checkReplacementSensitive(t *testing.T, doc any) {
	t.Helper()
	schemaSensitive := map[string]any{"secret": true, "password_wo": true}
	// The updated thing has tags, a map none of whose elements is sensitive.
	updated := map[string]any{"secret": true, "password_wo": true, "tags": map[string]any{}}
	mirrors := map[string]any{
		"tpf_thing.replaced_cbd":          schemaSensitive,
		"tpf_thing.replaced_delete_first": schemaSensitive,
		"tpf_thing.updated":               updated,
	}
	for _, change := range jsonAt(t, doc, "/resource_changes").([]any) {
		change := change.(map[string]any)
		if w, ok := mirrors[change["address"].(string)]; ok {
			if got := jsonAt(t, change, "/change/after_sensitive"); !reflect.DeepEqual(got, w) {
				t.Errorf("%s after_sensitive = %s, want %s", change["address"], compactJSON(got), compactJSON(w))
			}
		}
	}
	want := map[string]any{
		"tpf_thing.replaced_cbd":          map[string]any{},
		"tpf_thing.replaced_delete_first": map[string]any{},
		"tpf_thing.updated":               updated,
	}
	for _, res := range jsonAt(t, doc, "/planned_values/root_module/resources").([]any) {
		res := res.(map[string]any)
		if w, ok := want[res["address"].(string)]; ok {
			if !reflect.DeepEqual(res["sensitive_values"], w) {
				t.Errorf("planned %s sensitive_values = %s, want %s", res["address"], compactJSON(res["sensitive_values"]), compactJSON(w))
			}
			delete(want, res["address"].(string))
		}
	}
	if len(want) > 0 {
		t.Errorf("planned values lack %v", want)
	}
}

// checkPlanOutputs asserts output changes and planned output values of
// several types, a sensitive one, and one known only after apply.
func checkPlanOutputs(t *testing.T, run *jsonFormatsRun) {
	plan, doc := planDocument(t, run)
	want := map[string]struct {
		actions   tfjson.Actions
		sensitive bool
	}{
		"number": {tfjson.Actions{tfjson.ActionUpdate}, false},
		"text":   {tfjson.Actions{tfjson.ActionNoop}, false},
		"flag":   {tfjson.Actions{tfjson.ActionNoop}, false},
		"list":   {tfjson.Actions{tfjson.ActionNoop}, false},
		"hidden": {tfjson.Actions{tfjson.ActionUpdate}, true},
	}
	for name, w := range want {
		change := plan.OutputChanges[name]
		if change == nil {
			t.Errorf("no output change for %q", name)
			continue
		}
		if !reflect.DeepEqual(change.Actions, w.actions) || change.AfterSensitive != w.sensitive || change.BeforeSensitive != w.sensitive {
			t.Errorf("output %q: actions %v, sensitive %v/%v; want %v, %v", name, change.Actions, change.BeforeSensitive, change.AfterSensitive, w.actions, w.sensitive)
		}
	}
	// An output of a data source read at apply time is not known yet.
	if later := plan.OutputChanges["later"]; later == nil || !reflect.DeepEqual(later.Actions, tfjson.Actions{tfjson.ActionCreate}) || later.AfterUnknown != true {
		t.Errorf("output later (from a data source read at apply time): %+v, want a create with an unknown value", later)
	}
	if got := jsonAt(t, doc, "/planned_values/outputs/number"); !reflect.DeepEqual(got, map[string]any{"sensitive": false, "type": "number", "value": json.Number("43")}) {
		t.Errorf("planned number output: %s", compactJSON(got))
	}
	if got := jsonAt(t, doc, "/planned_values/outputs/hidden"); got.(map[string]any)["sensitive"] != true {
		t.Errorf("planned sensitive output: %s", compactJSON(got))
	}
	if got := jsonAt(t, doc, "/planned_values/outputs/list/type"); !reflect.DeepEqual(got, []any{"tuple", []any{"string", "string"}}) {
		t.Errorf("planned list output type: %s", compactJSON(got))
	}
}

// checkPlanPriorState asserts that the plan's prior_state is the state
// the plan was made from as Terraform shows it: refreshed (the drift is in
// it), with the moved object at its new address, the imported object
// present, and the root outputs.
func checkPlanPriorState(t *testing.T, run *jsonFormatsRun) {
	plan, _ := planDocument(t, run)
	root := plan.PriorState.Values.RootModule
	if res := findStateResource(root, "tpf_thing.drifted"); res == nil || res.AttributeValues["description"] != "changed outside" {
		t.Errorf("prior_state should hold the refreshed tpf_thing.drifted: %+v", res)
	}
	if findStateResource(root, "tpf_thing.new_name") == nil || findStateResource(root, "tpf_thing.old_name") != nil {
		t.Error("prior_state should hold the moved object at its new address only")
	}
	if res := findStateResource(root, "tpf_thing.adopted"); res == nil || res.AttributeValues["name"] != "orphan" {
		t.Errorf("prior_state should hold the imported object: %+v", res)
	}
	// Data sources: one read while planning is there with its result, one
	// to be read again at apply is not, as in Terraform's prior_state.
	if res := findStateResource(root, "data.tpf_thing.read_stable"); res == nil || res.AttributeValues["name"] != "counted-0" {
		t.Errorf("prior_state should hold data.tpf_thing.read_stable's result: %+v", res)
	}
	if res := findStateResource(root, "data.tpf_thing.read_now"); res != nil {
		t.Errorf("prior_state holds data.tpf_thing.read_now, which the plan reads at apply: %+v", res)
	}
	outputs := plan.PriorState.Values.Outputs
	if hidden := outputs["hidden"]; hidden == nil || !hidden.Sensitive {
		t.Errorf("prior_state output hidden: %+v", hidden)
	}
	// As Terraform's, refreshing evaluates outputs again: a known planned
	// value is already there.
	if number := outputs["number"]; number == nil || number.Value != float64(43) {
		t.Errorf("prior_state output number: %+v, want the planned 43", number)
	}
	if object := outputs["object"]; object == nil || !reflect.DeepEqual(object.Value, map[string]any{"name": "updated", "tags": map[string]any{"stage": "one"}}) {
		t.Errorf("prior_state output object (not known until apply) should keep its previous value: %+v", object)
	}
	if _, found := outputs["later"]; found {
		t.Error("prior_state has a new output whose value is not known yet")
	}
}

// checkCheckResults asserts the statuses of check blocks and conditions in
// the plan: pass, fail, and unknown for one that needs a value known only
// after apply.
func checkCheckResults(t *testing.T, run *jsonFormatsRun) {
	plan, _ := planDocument(t, run)
	assertCheckStatuses(t, "plan", plan.Checks, tfjson.CheckStatusUnknown)
	for _, check := range plan.Checks {
		if check.Address.ToDisplay == "check.never" {
			if len(check.Instances) != 1 || len(check.Instances[0].Problems) != 1 ||
				check.Instances[0].Problems[0].Message != `The updated thing's description is not "something else".` {
				t.Errorf("the failing check does not carry its error message: %+v", check.Instances)
			}
		}
	}
}

// checkStateCheckResults requires the state after v2 to keep the apply's
// check results, as Terraform's does: in show -json's "checks" (the plan's
// unknown check now decided) and in state pull's "check_results"; and the
// state after destroy to keep none.
func checkStateCheckResults(t *testing.T, run *jsonFormatsRun) {
	var state tfjson.State
	if err := json.Unmarshal([]byte(run.outputs[stepStateV2]), &state); err != nil {
		t.Fatal(err)
	}
	// The check known only after apply is decided by it.
	assertCheckStatuses(t, "state after v2", state.Checks, tfjson.CheckStatusPass)
	var pulled struct {
		CheckResults []struct {
			ObjectKind string `json:"object_kind"`
			ConfigAddr string `json:"config_addr"`
			Status     string `json:"status"`
		} `json:"check_results"`
	}
	if err := json.Unmarshal([]byte(run.outputs[stepPullV2]), &pulled); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, result := range pulled.CheckResults {
		kinds[result.ConfigAddr] = result.ObjectKind + " " + result.Status
	}
	if kinds["check.never"] != "check fail" || kinds["tpf_thing.each"] != "resource pass" {
		t.Errorf("state pull's check_results: %v", kinds)
	}
	if strings.Contains(run.outputs[stepStateEmpty], `"checks"`) {
		t.Errorf("the state after destroy keeps check results: %s", run.outputs[stepStateEmpty])
	}
}

// checkStateDataSources requires the state after v2 to hold each data
// source's last read result, as Terraform's does, through show -json,
// state list and state pull; and the state after destroy to hold none.
func checkStateDataSources(t *testing.T, run *jsonFormatsRun) {
	var state tfjson.State
	if err := json.Unmarshal([]byte(run.outputs[stepStateV2]), &state); err != nil {
		t.Fatal(err)
	}
	root := state.Values.RootModule
	for address, name := range map[string]string{
		"data.tpf_thing.read_stable": "counted-0", "data.tpf_thing.read_now": "updated", "data.tpf_thing.read_later": "fresh",
	} {
		res := findStateResource(root, address)
		if res == nil || res.Mode != tfjson.DataResourceMode || res.AttributeValues["name"] != name {
			t.Errorf("state after v2: %s is %+v, want a data resource read with name %q", address, res, name)
		}
	}
	listed := strings.Fields(run.outputs[stepListV2])
	for _, address := range []string{"data.tpf_thing.read_stable", "data.tpf_thing.read_now", "data.tpf_thing.read_later"} {
		if !slices.Contains(listed, address) {
			t.Errorf("state list after v2 lacks %s: %v", address, listed)
		}
	}
	var pulled struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				Attributes map[string]any `json:"attributes"`
			}
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(run.outputs[stepPullV2]), &pulled); err != nil {
		t.Fatal(err)
	}
	data := 0
	for _, res := range pulled.Resources {
		if res.Mode == "data" && len(res.Instances) == 1 && res.Instances[0].Attributes["id"] != nil {
			data++
		}
	}
	if data != 3 {
		t.Errorf("state pull after v2 has %d data resources with their results, want 3", data)
	}
}

// assertCheckStatuses requires the scenario's checks to have their
// statuses, check.pending's being pending.
func assertCheckStatuses(t *testing.T, what string, checks []tfjson.CheckResultStatic, pending tfjson.CheckStatus) {
	t.Helper()
	statuses := checkStatuses(checks)
	for address, want := range map[string]tfjson.CheckStatus{
		"check.always":   tfjson.CheckStatusPass,
		"check.never":    tfjson.CheckStatusFail,
		"check.pending":  pending,
		"tpf_thing.each": tfjson.CheckStatusPass,
	} {
		if statuses[address] != want {
			t.Errorf("%s: %s is %q, want %q (all: %v)", what, address, statuses[address], want, statuses)
		}
	}
}

func checkStatuses(checks []tfjson.CheckResultStatic) map[string]tfjson.CheckStatus {
	out := map[string]tfjson.CheckStatus{}
	for _, check := range checks {
		out[check.Address.ToDisplay] = check.Status
	}
	return out
}

// checkStateValues asserts what the state after v2 holds: every managed
// object with its values, instance keys, identities and
// outputs, and nothing of the destroyed or forgotten objects.
func checkStateValues(t *testing.T, run *jsonFormatsRun) {
	var state tfjson.State
	if err := json.Unmarshal([]byte(run.outputs[stepStateV2]), &state); err != nil {
		t.Fatal(err)
	}
	root := state.Values.RootModule
	for _, address := range []string{"tpf_thing.fresh", "tpf_thing.new_name", "tpf_thing.adopted", `tpf_thing.each["a"]`, "tpf_thing.counted[1]"} {
		if findStateResource(root, address) == nil {
			t.Errorf("state after v2 lacks %s", address)
		}
	}
	for _, address := range []string{"tpf_thing.doomed", "tpf_thing.old_name", "tpf_thing.orphan"} {
		if findStateResource(root, address) != nil {
			t.Errorf("state after v2 still has %s", address)
		}
	}
	if res := findStateResource(root, "tpf_thing.counted[1]"); res != nil && res.Index != float64(1) {
		t.Errorf("tpf_thing.counted[1] index = %#v, want 1", res.Index)
	}
	if res := findStateResource(root, `tpf_thing.each["a"]`); res != nil && res.Index != "a" {
		t.Errorf(`tpf_thing.each["a"] index = %#v, want "a"`, res.Index)
	}
	if res := findStateResource(root, "tpf_thing.updated"); res == nil || res.AttributeValues["description"] != "second" || res.IdentityValues["id"] != res.AttributeValues["id"] {
		t.Errorf("tpf_thing.updated in the state after v2: %+v", res)
	}
	if res := findStateResource(root, "tpf_thing.secret"); res == nil || res.AttributeValues["secret"] != "hunter3" ||
		string(res.SensitiveValues) != `{"description":true,"password_wo":true,"secret":true,"tags":{"hidden":true}}` {
		t.Errorf("tpf_thing.secret in the state should carry its values with the sensitive ones flagged: %+v", res)
	}
	if out := state.Values.Outputs["later"]; out == nil || out.Value != "fresh" {
		t.Errorf("output later (known after apply) in the state: %+v", out)
	}
	if out := state.Values.Outputs["hidden"]; out == nil || !out.Sensitive {
		t.Errorf("output hidden in the state is not sensitive: %+v", out)
	}
	var empty tfjson.State
	if err := json.Unmarshal([]byte(run.outputs[stepStateEmpty]), &empty); err != nil {
		t.Fatal(err)
	}
	if empty.Values != nil {
		t.Errorf("the state after destroy still has values: %s", run.outputs[stepStateEmpty])
	}
}

func findStateResource(module *tfjson.StateModule, address string) *tfjson.StateResource {
	if module == nil {
		return nil
	}
	for _, res := range module.Resources {
		if res.Address == address && res.DeposedKey == "" {
			return res
		}
	}
	for _, child := range module.ChildModules {
		if res := findStateResource(child, address); res != nil {
			return res
		}
	}
	return nil
}
