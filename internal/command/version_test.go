package command

import (
	"encoding/json"
	"strings"
	"testing"
)

func runCommand(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut strings.Builder
	code = Run(args, Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return out.String(), errOut.String(), code
}

func TestVersion(t *testing.T) {
	out, _, code := runCommand(t, "version")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"Terrane v", "6.11", "5.11"} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = runCommand(t, "version", "-json")
	var doc struct {
		TerraneVersion    string   `json:"terrane_version"`
		ProviderProtocols []string `json:"provider_protocols"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.TerraneVersion == "" || len(doc.ProviderProtocols) != 2 {
		t.Errorf("version -json: exit %d, output %s", code, out)
	}
}

func TestUnknownCommand(t *testing.T) {
	_, errOut, code := runCommand(t, "frobnicate")
	if code == 0 || !strings.Contains(errOut, `no command named "frobnicate"`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
