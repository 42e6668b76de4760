package command

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// documentSteps are the scenario's outputs that are whole JSON documents.
var documentSteps = []string{stepStateV1, stepShowPlanV2, stepStateV2, stepPullV2, stepStateEmpty}

// documentDifference is a way in which terrane's document knowingly
// differs from terraform's, where OpenTofu differs from Terraform.
type documentDifference struct {
	Step string
	// Pattern is a path.Match pattern over JSON pointers.
	Pattern string
	// Kind is "lost" (terraform's only), "added" (terrane's only) or
	// "changed".
	Kind string
	Why  string
}

var knownDocumentDifferences = []documentDifference{
	{stepStateV1, "/terraform_version", "changed", "the OpenTofu version Terrane implements"},
	{stepStateV2, "/terraform_version", "changed", "the OpenTofu version Terrane implements"},
	{stepShowPlanV2, "/terraform_version", "changed", "the OpenTofu version Terrane implements"},
	{stepShowPlanV2, "/prior_state/terraform_version", "changed", "the OpenTofu version Terrane implements"},
	{stepPullV2, "/terraform_version", "changed", "the OpenTofu version Terrane implements"},
	{stepPullV2, "/lineage", "changed", "each state has its own lineage"},
	{stepPullV2, "/serial", "changed", "Terraform counts every snapshot it wrote; Terrane's store keeps versions per object"},
	{stepPullV2, "/resources/*/instances/*/private", "changed", "the provider's private data holds the object's id, base64-encoded"},
	{stepShowPlanV2, "/applyable", "lost", "Terraform's; OpenTofu's plan has no applyable"},
	{stepShowPlanV2, "/complete", "lost", "Terraform's; OpenTofu's plan has no complete"},
	{stepShowPlanV2, "/configuration/root_module/variables/*/type", "added", "OpenTofu 1.11 added a variable's type"},
	{stepShowPlanV2, "/configuration/root_module/variables/*/required", "added", "OpenTofu 1.11 added whether a variable is required"},
}

// identityDifferences are the resource identities terraform 1.11, which
// predates them, does not write and OpenTofu does: the test provider's
// things have one.
var identityDifferences = []documentDifference{
	{stepStateV1, "/values/root_module/resources/*/identity*", "added", "resource identity"},
	{stepStateV2, "/values/root_module/resources/*/identity*", "added", "resource identity"},
	{stepShowPlanV2, "/prior_state/values/root_module/resources/*/identity*", "added", "resource identity"},
	{stepShowPlanV2, "/planned_values/root_module/resources/*/identity*", "added", "resource identity"},
	{stepShowPlanV2, "/resource_changes/*/change/*_identity", "added", "resource identity"},
	{stepShowPlanV2, "/resource_drift/*/change/*_identity", "added", "resource identity"},
	{stepPullV2, "/resources/*/instances/*/identity*", "added", "resource identity"},
}

// unorderedLists are the lists whose order neither program defines (both
// fill them from Go maps, or from marks in the order they were made), so
// they are compared as sets.
var unorderedLists = []string{"/relevant_attributes", "/check_results", "/check_results/*/objects", "/resources/*/instances/*/sensitive_attributes"}

var (
	documentIDPattern   = regexp.MustCompile(`\b[0-9a-f]{16}\b`)
	documentTimePattern = regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b`)
)

// compareJSONDocuments requires show -json of the state and of the saved
// plan, and state pull, to be the same documents terraform prints, ids,
// times and the cloud directory aside, but for the known differences,
// each of which must occur (so the list cannot go stale).
func compareJSONDocuments(t *testing.T, run *jsonFormatsRun, want map[string]string) {
	known := append(append([]documentDifference{}, knownDocumentDifferences...), identityDifferences...)
	used := map[int]bool{}
	for _, step := range documentSteps {
		tf := normalizeDocument("", decodeJSONNumbers(t, "terraform's "+step, []byte(want[step])), want[cloudStep])
		tr := normalizeDocument("", decodeJSONNumbers(t, "terrane's "+step, []byte(run.outputs[step])), run.p.cloud)
		for _, d := range diffJSON("", tf, tr) {
			match := -1
			for i, k := range known {
				if matched, _ := path.Match(k.Pattern, d.Pointer); matched && k.Step == step && k.Kind == d.Kind {
					match = i
				}
			}
			if match >= 0 {
				used[match] = true
				continue
			}
			t.Errorf("%s: %s", step, describeDocumentDifference(d))
		}
	}
	for i, k := range known {
		if !used[i] {
			t.Errorf("%s: the known difference %s %s (%s) did not occur", k.Step, k.Kind, k.Pattern, k.Why)
		}
	}
}

func describeDocumentDifference(d jsonDifference) string {
	switch d.Kind {
	case "lost":
		return fmt.Sprintf("%s: terraform has %s, terrane nothing", d.Pointer, compactJSON(d.Original))
	case "added":
		return fmt.Sprintf("%s: terrane has %s, terraform nothing", d.Pointer, compactJSON(d.Reencoded))
	}
	return fmt.Sprintf("%s: terraform has %s, terrane %s", d.Pointer, compactJSON(d.Original), compactJSON(d.Reencoded))
}

// normalizeDocument masks what differs between any two runs: object ids,
// times and the cloud directory the run's provider wrote to; and it sorts
// the unordered lists.
func normalizeDocument(pointer string, v any, cloud string) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalizeDocument(pointer+"/"+k, e, cloud)
		}
	case []any:
		for i, e := range v {
			v[i] = normalizeDocument(fmt.Sprintf("%s/%d", pointer, i), e, cloud)
		}
		for _, pattern := range unorderedLists {
			if matched, _ := path.Match(pattern, pointer); matched {
				sort.Slice(v, func(i, j int) bool { return jsonText(v[i]) < jsonText(v[j]) })
			}
		}
	case string:
		s := strings.ReplaceAll(v, cloud, "CLOUD")
		s = documentTimePattern.ReplaceAllString(s, "TIME")
		return documentIDPattern.ReplaceAllString(s, "ID")
	}
	return v
}

func jsonText(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}
