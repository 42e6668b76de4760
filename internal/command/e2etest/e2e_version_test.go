package e2etest

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/version"
)

// TestVersion prints the versions; -json is OpenTofu's document
// (internal/command/views/version.go), "terraform_version" being the
// OpenTofu version Terrane implements, and provider_selections what the
// lock file selects.
func TestVersion(t *testing.T) {
	t.Parallel()
	p := newBareProject(t)
	p.writeFile(".terraform.lock.hcl", `provider "registry.opentofu.org/hashicorp/null" {
  version = "3.2.4"
  hashes  = ["h1:hkf5w5B6q8e2A7jBzVkE7qhvFfkvP8FkbRzSxUCMrBA="]
}
`)
	out, _, code := p.run("version")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"Terrane v", "on " + runtime.GOOS + "_" + runtime.GOARCH, "+ provider registry.opentofu.org/hashicorp/null v3.2.4"} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = p.run("version", "-json")
	var doc map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("version -json: exit %d, output %s", code, out)
	}
	want := map[string]any{
		"terraform_version":   version.OpenTofuVersion,
		"platform":            runtime.GOOS + "_" + runtime.GOARCH,
		"provider_selections": map[string]any{"registry.opentofu.org/hashicorp/null": "3.2.4"},
	}
	if !reflect.DeepEqual(doc, want) {
		t.Errorf("version -json: %v, want %v", doc, want)
	}
}

// TestViewFlagsAfterArguments accepts -no-color and -compact-warnings
// after positional arguments, as OpenTofu's arguments.ParseView does.
func TestViewFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, `
resource "terraform_data" "x" {
  input = "v"
}

output "o" {
  value = "raw text"
}
`)
	p.mustRun("apply", "-auto-approve", "-no-color")
	if out := p.mustRun("output", "-raw", "o", "-no-color"); out != "raw text" {
		t.Errorf("output -raw o -no-color printed %q", out)
	}
	if out := p.mustRun("state", "show", "terraform_data.x", "-no-color"); !strings.Contains(out, `resource "terraform_data" "x"`) || strings.Contains(out, "\x1b[") {
		t.Errorf("state show ADDR -no-color printed:\n%s", out)
	}
}

func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	_, errOut, code := newBareProject(t).run("frobnicate")
	if code == 0 || !strings.Contains(errOut, `no command named "frobnicate"`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
