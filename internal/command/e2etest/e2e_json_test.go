package e2etest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// jsonMessageTypes parses a -json stream and returns each message's type,
// failing on any line that is not a JSON object with one.
func jsonMessageTypes(t *testing.T, stream string) []string {
	t.Helper()
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var msg struct {
			Type    string `json:"type"`
			Message string `json:"@message"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.Type == "" || msg.Message == "" {
			t.Fatalf("not a UI message (%v): %q\nstream:\n%s", err, line, stream)
		}
		types = append(types, msg.Type)
	}
	return types
}

// TestE2EJSONStream checks that -json turns plan and apply output into
// Terraform's machine-readable message stream and nothing else.
func TestE2EJSONStream(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, lifecycleHeader+`
resource "tpf_thing" "a" {
  name = "a"
}

output "id" {
  value = tpf_thing.a.id
}
`)
	out := p.mustRun("plan", "-json")
	types := jsonMessageTypes(t, out)
	for _, want := range []string{"version", "planned_change", "change_summary"} {
		if !slices.Contains(types, want) {
			t.Errorf("plan -json has no %s message: %v", want, types)
		}
	}

	_, _, code := p.run("apply", "-json")
	if code != 1 {
		t.Errorf("apply -json without -auto-approve: exit %d, want 1", code)
	}
	if len(p.objects("tpf_thing")) != 0 {
		t.Fatal("apply -json without -auto-approve changed something")
	}

	out = p.mustRun("apply", "-json", "-auto-approve")
	types = jsonMessageTypes(t, out)
	for _, want := range []string{"version", "planned_change", "apply_start", "apply_complete", "change_summary", "outputs"} {
		if !slices.Contains(types, want) {
			t.Errorf("apply -json has no %s message: %v", want, types)
		}
	}
	clitest.AssertContains(t, "apply -json", out, `"add":1`, `"operation":"apply"`)
}
