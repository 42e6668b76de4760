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

// TestProvidersSchemaMatchesOpenTofu runs `tofu providers schema -json`
// and `terrane providers schema -json` over the same public provider
// binaries and compares the documents. It needs OpenTofu, the differential
// corpus's oracle (TERRANE_ORACLE_DIR), and a filesystem mirror of public
// providers: TERRANE_COMPAT_MIRROR, or /opt/tf-plugins when it exists; it
// is skipped otherwise. The providers compared are every
// HOST/NAMESPACE/TYPE in the mirror; both programs install them from the
// unpacked mirror, and each starts them once.
func TestProvidersSchemaMatchesOpenTofu(t *testing.T) {
	if testing.Short() {
		t.Skip("compares with OpenTofu over real public providers; skipped with -short")
	}
	tofu := oracleTofu(t)
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
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+os.Getenv("TERRANE_CLI_CONFIG_FILE"), "TF_DATA_DIR="+filepath.Join(t.TempDir(), "tfdata"),
		"TF_PLUGIN_CACHE_DIR=", "CHECKPOINT_DISABLE=1")
	runTofu := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(tofu, args...)
		cmd.Dir, cmd.Env = project, env
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("tofu %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
		}
		return out
	}
	runTofu("init", "-input=false", "-backend=false")
	want := runTofu("providers", "schema", "-json")

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
		t.Errorf("terrane's schema JSON differs from OpenTofu's (-tofu +terrane):\n%s", truncate(diff, 4000))
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n..."
}

// oracleTofu is the executable of OpenTofu the differential corpus runs
// (TERRANE_ORACLE_DIR: its env file names it as TOFU), or the test is
// skipped.
func oracleTofu(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TERRANE_ORACLE_DIR")
	if dir == "" {
		t.Skip("no OpenTofu oracle installed (TERRANE_ORACLE_DIR)")
	}
	tofu := filepath.Join(dir, "bin", "tofu")
	if env, err := os.ReadFile(filepath.Join(dir, "env")); err == nil {
		for _, line := range strings.Split(string(env), "\n") {
			if value, ok := strings.CutPrefix(strings.TrimSpace(line), "export TOFU="); ok {
				tofu = strings.Trim(value, `"`)
			}
		}
	}
	if _, err := os.Stat(tofu); err != nil {
		t.Skipf("no OpenTofu at %s", tofu)
	}
	return tofu
}
