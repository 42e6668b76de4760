package command

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// TestProvidersSchemaMatchesTerraform runs `terraform providers schema
// -json` and `terrane providers schema -json` over the same public provider
// binaries and compares the documents. It needs a terraform executable and
// a filesystem mirror of public providers: TERRANE_COMPAT_MIRROR, or
// /opt/tf-plugins when it exists; it is skipped otherwise. The providers
// compared are every HOST/NAMESPACE/TYPE in the mirror.
func TestProvidersSchemaMatchesTerraform(t *testing.T) {
	if testing.Short() {
		t.Skip("compares against terraform over real public providers; skipped with -short")
	}
	terraform, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("no terraform executable to compare with")
	}
	mirror := os.Getenv("TERRANE_COMPAT_MIRROR")
	if mirror == "" {
		mirror = "/opt/tf-plugins"
	}
	sources, _ := filepath.Glob(filepath.Join(mirror, "*", "*", "*"))
	if len(sources) == 0 {
		t.Skipf("no public providers in the mirror %s", mirror)
	}
	var requirements strings.Builder
	requirements.WriteString("terraform {\n  required_providers {\n")
	for _, dir := range sources {
		rel, _ := filepath.Rel(mirror, dir)
		source := filepath.ToSlash(rel)
		requirements.WriteString("    " + filepath.Base(dir) + " = { source = \"" + source + "\" }\n")
	}
	requirements.WriteString("  }\n}\n")

	project := useMirror(t, mirror, requirements.String())
	t.Setenv("TF_CLI_CONFIG_FILE", os.Getenv("TERRANE_CLI_CONFIG_FILE"))
	t.Setenv("TF_DATA_DIR", filepath.Join(t.TempDir(), "tfdata"))
	t.Setenv("CHECKPOINT_DISABLE", "1")
	runTerraform := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(terraform, args...)
		cmd.Dir = project
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("terraform %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
		}
		return out
	}
	runTerraform("init", "-input=false", "-backend=false")
	want := runTerraform("providers", "schema", "-json")

	got, errOut, code := runCommand(t, "providers", "schema", "-json")
	if code != 0 {
		t.Fatalf("terrane exit %d:\n%s", code, errOut)
	}
	var wantDoc, gotDoc tfjson.ProviderSchemas
	if err := json.Unmarshal(want, &wantDoc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(got), &gotDoc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&wantDoc, &gotDoc, cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) })); diff != "" {
		t.Errorf("terrane's schema JSON differs from terraform's (-terraform +terrane):\n%s", truncate(diff, 4000))
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n..."
}
