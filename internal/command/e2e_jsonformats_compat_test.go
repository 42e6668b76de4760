package command

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// TestJSONFormatsMatchTerraform runs the JSON formats scenario with the
// terraform binary and with terrane and compares what both printed: the
// -json streams and the JSON documents (compareJSONDocuments).
func TestJSONFormatsMatchTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	want := runJSONFormatsScenarioWithTerraform(t, terraform)
	run := runJSONFormatsScenario(t)
	t.Run("streams", func(t *testing.T) { compareUIStreams(t, run.outputs, want) })
	t.Run("documents", func(t *testing.T) { compareJSONDocuments(t, run, want) })
}

// compareUIStreams requires the -json streams of apply, plan, apply
// PLANFILE, refresh and destroy to carry the same messages, ids and
// timings aside. Messages are compared as a set per step: both programs
// work in parallel, so their order varies.
func compareUIStreams(t *testing.T, got, want map[string]string) {
	// What terrane knowingly does otherwise, as "step: message" lines.
	known := map[string]string{
		// Terraform refreshes before planning a destroy, reading data
		// sources as it does; terrane reads none to destroy.
		stepDestroy + `: apply_start info "data.tpf_thing.read_now: Refreshing..." read`:                           "terraform",
		stepDestroy + `: apply_start info "data.tpf_thing.read_stable: Refreshing..." read`:                        "terraform",
		stepDestroy + `: apply_start info "data.tpf_thing.read_later: Refreshing..." read`:                         "terraform",
		stepDestroy + `: apply_complete info "data.tpf_thing.read_now: Refresh complete after Ns [id=ID]" read`:    "terraform",
		stepDestroy + `: apply_complete info "data.tpf_thing.read_stable: Refresh complete after Ns [id=ID]" read`: "terraform",
		stepDestroy + `: apply_complete info "data.tpf_thing.read_later: Refresh complete after Ns [id=ID]" read`:  "terraform",
	}
	for _, step := range []string{stepApplyV1, stepApplyNoop, stepPlanV2, stepApplyV2, stepRefresh, stepDestroy} {
		terraneOnly, terraformOnly := multisetDifference(comparableStream(t, step, got[step]), comparableStream(t, step, want[step]))
		for _, line := range terraneOnly {
			if known[step+": "+line] != "terrane" {
				t.Errorf("%s: terrane writes a message terraform does not: %s", step, line)
			}
		}
		for _, line := range terraformOnly {
			if known[step+": "+line] != "terraform" {
				t.Errorf("%s: terraform writes a message terrane does not: %s", step, line)
			}
		}
	}
}

// runJSONFormatsScenarioWithTerraform is runJSONFormatsScenario's steps
// run by terraform, against its own cloud directory, with the same test
// providers.
func runJSONFormatsScenarioWithTerraform(t *testing.T, terraform string) map[string]string {
	t.Helper()
	v1, v2 := readJSONFormatsConfig(t, "v1.tf"), readJSONFormatsConfig(t, "v2.tf")
	mirror := providertest.Build(t)
	rc := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")
	p := &e2eProject{t: t, dir: t.TempDir(), cloud: t.TempDir()}
	env := append(terraformEnv(t), "TF_CLI_CONFIG_FILE="+rc)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(terraform, args...)
		cmd.Dir, cmd.Env = p.dir, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	p.write(v1)
	run("init", "-no-color")
	outputs := map[string]string{cloudStep: p.cloud}
	outputs[stepApplyV1] = run("apply", "-json", "-auto-approve")
	outputs[stepStateV1] = run("show", "-json")
	outputs[stepApplyNoop] = run("apply", "-json", "-auto-approve")
	orphanID := p.objects("tpf_thing")["orphan"].attrs["id"].(string)
	run("state", "rm", "tpf_thing.orphan")
	p.editObject(p.objects("tpf_thing")["drifted"], func(attrs map[string]any) {
		attrs["description"] = "changed outside"
	})
	p.write(v2)
	orphanVar := "orphan_id=" + orphanID
	outputs[stepPlanV2] = run("plan", "-json", "-out=v2.tfplan", "-var", orphanVar)
	outputs[stepShowPlanV2] = run("show", "-json", "v2.tfplan")
	outputs[stepApplyV2] = run("apply", "-json", "v2.tfplan")
	outputs[stepStateV2] = run("show", "-json")
	outputs[stepPullV2] = run("state", "pull")
	outputs[stepRefresh] = run("refresh", "-json", "-var", orphanVar)
	outputs[stepDestroy] = run("destroy", "-json", "-auto-approve", "-var", orphanVar)
	outputs[stepStateEmpty] = run("show", "-json")
	return outputs
}

// cloudStep keys the cloud directory a scenario run used among its outputs.
const cloudStep = "cloud directory"

var (
	streamIDPattern      = regexp.MustCompile(`[0-9a-f]{16}`)
	streamElapsedPattern = regexp.MustCompile(`after \d+s`)
)

// comparableStream reduces each message of a stream, the version message
// aside, to one line of what a consumer reads from it: type, level,
// message, hook action, change summary, outputs and the diagnostic's
// summary and line, with ids and timings masked.
func comparableStream(t *testing.T, step, stream string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var msg struct {
			Type    string          `json:"type"`
			Level   string          `json:"@level"`
			Message string          `json:"@message"`
			Hook    *uiHook         `json:"hook"`
			Changes json.RawMessage `json:"changes"`
			Outputs json.RawMessage `json:"outputs"`
			Diag    *struct {
				Summary string `json:"summary"`
				Range   *struct {
					Start struct{ Line int } `json:"start"`
				} `json:"range"`
			} `json:"diagnostic"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("%s: %v\n%s", step, err, line)
		}
		if msg.Type == "version" {
			continue
		}
		text := streamElapsedPattern.ReplaceAllString(streamIDPattern.ReplaceAllString(msg.Message, "ID"), "after Ns")
		fields := []string{msg.Type, msg.Level, `"` + text + `"`}
		if msg.Hook != nil {
			fields = append(fields, msg.Hook.Action)
		}
		if len(msg.Changes) > 0 {
			// Re-encoded through the documented type, so Terraform's
			// summaries gain the "forget": 0 OpenTofu always writes.
			var changes uiChangeSummary
			if err := json.Unmarshal(msg.Changes, &changes); err != nil {
				t.Fatalf("%s: %v\n%s", step, err, line)
			}
			encoded, _ := json.Marshal(changes)
			fields = append(fields, string(encoded))
		}
		if len(msg.Outputs) > 0 {
			fields = append(fields, string(msg.Outputs))
		}
		if msg.Diag != nil {
			fields = append(fields, msg.Diag.Summary)
			if msg.Diag.Range != nil {
				fields = append(fields, "line", strconv.Itoa(msg.Diag.Range.Start.Line))
			}
		}
		out = append(out, strings.Join(fields, " "))
	}
	return out
}

// multisetDifference returns what each side has more of than the other.
func multisetDifference(a, b []string) (onlyA, onlyB []string) {
	counts := map[string]int{}
	for _, line := range a {
		counts[line]++
	}
	for _, line := range b {
		counts[line]--
	}
	for line, n := range counts {
		for ; n > 0; n-- {
			onlyA = append(onlyA, line)
		}
		for ; n < 0; n++ {
			onlyB = append(onlyB, line)
		}
	}
	slices.Sort(onlyA)
	slices.Sort(onlyB)
	return onlyA, onlyB
}
