package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// testOutcome is what `test -no-color` reports where Terraform and
// OpenTofu agree: each file's status and its runs' lines, the closing
// summary, and the summaries of the errors and warnings in order. The
// progress lines only Terraform prints ("in progress", "tearing down"),
// and where each tool puts a file's status line, are left out.
type testOutcome struct {
	files       map[string]string
	runs        map[string][]string
	summary     string
	diagnostics []string
	// leftBehind lists the addresses a clean-up reports it could not
	// destroy.
	leftBehind []string
	code       int
}

var (
	testFileLine = regexp.MustCompile(`^(\S+\.tftest\.hcl)\.\.\. (pass|fail|skip|in progress|tearing down)$`)
	testRunLine  = regexp.MustCompile(`^  run "[^"]+"\.\.\. (pass|fail|skip)$`)
	testDiagLine = regexp.MustCompile(`^(?:│ )?((?:Error|Warning): .*)$`)
	testLeftLine = regexp.MustCompile(`^  - (\S+)$`)
)

func parseTestOutcome(stdout, stderr string, code int) testOutcome {
	out := testOutcome{files: map[string]string{}, runs: map[string][]string{}, code: code}
	current := ""
	for _, line := range strings.Split(stdout, "\n") {
		switch {
		case testFileLine.MatchString(line):
			m := testFileLine.FindStringSubmatch(line)
			current = m[1]
			if m[2] != "in progress" && m[2] != "tearing down" {
				out.files[m[1]] = m[2]
			}
		case testRunLine.MatchString(line):
			out.runs[current] = append(out.runs[current], line)
		case strings.HasPrefix(line, "Success!") || strings.HasPrefix(line, "Failure!") || strings.HasPrefix(line, "Executed"):
			out.summary = line
		}
	}
	for _, line := range strings.Split(stdout+"\n"+stderr, "\n") {
		if m := testDiagLine.FindStringSubmatch(line); m != nil {
			out.diagnostics = append(out.diagnostics, m[1])
		}
		if m := testLeftLine.FindStringSubmatch(line); m != nil {
			out.leftBehind = append(out.leftBehind, m[1])
		}
	}
	return out
}

// terraformTestSummaries are the summaries of errors Terraform words
// differently from OpenTofu, which Terrane follows, mapped to OpenTofu's.
var terraformTestSummaries = map[string]string{
	"Error: Unknown condition value": "Error: Unknown condition run",
}

// TestTestCommandMatchesTerraform runs one suite of test files, written
// with terraform_data and a module so that it needs no provider, through
// terraform test and terrane test and compares what they report: run
// outcomes (applies, plans, failed assertions, expected failures of
// variables, outputs, checks and resources, a missing expected failure
// and the skips after it, plan_options, run outputs passed to variables,
// an override, an assertion on a resource the configuration does not
// declare) and the errors.
func TestTestCommandMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	rc := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, rc, "")
	want, got := runTestScenarioWithBoth(t, terraform, "test-compat", rc, "-no-color")
	compareTestOutcomes(t, got, want, 3)
}

// TestTestCommandWithProviderMatchesTerraform compares terraform test and
// terrane test on a suite of the framework test provider, run with
// -var-file and -filter: provider blocks in a test file, a module run
// given an aliased one through providers, a targeted plan, an assertion on
// a value known only after apply and the skip after it, a mock provider
// with mock_resource and mock_data defaults, an override_data, a failed
// assertion, and a clean-up that cannot delete what its run made.
func TestTestCommandWithProviderMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	mirror := providertest.Build(t)
	rc := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")
	want, got := runTestScenarioWithBoth(t, terraform, "test-compat-provider", rc, "-no-color", "-var-file=values.tfvars",
		"-filter=providers.tftest.hcl", "-filter=mocks.tftest.hcl", "-filter=tests/cleanup.tftest.hcl")
	// Terraform fails a file whose clean-up leaves objects behind; OpenTofu,
	// which Terrane follows, lists them and leaves the file's status alone.
	if want.files["tests/cleanup.tftest.hcl"] == "fail" {
		want.files["tests/cleanup.tftest.hcl"] = "pass"
	}
	compareTestOutcomes(t, got, want, 3)
	if strings.Join(want.leftBehind, ",") != "tpf_thing.a" {
		t.Errorf("terraform's clean-up left %v, want tpf_thing.a", want.leftBehind)
	}
	if strings.Join(got.leftBehind, ",") != strings.Join(want.leftBehind, ",") {
		t.Errorf("the clean-up left %v behind, terraform %v", got.leftBehind, want.leftBehind)
	}
}

// runTestScenarioWithBoth initialises a copy of the scenario in testdata
// for each tool, CLOUD in its files replaced by a directory of the copy's
// own, and runs test with args in each; rc is the CLI configuration both
// install providers by.
func runTestScenarioWithBoth(t *testing.T, terraform, scenario, rc string, args ...string) (want, got testOutcome) {
	t.Helper()
	from, err := filepath.Abs(filepath.Join("testdata", scenario))
	if err != nil {
		t.Fatal(err)
	}
	tfDir := copyTestScenario(t, from)
	env := append(terraformEnv(t), "TF_CLI_CONFIG_FILE="+rc)
	runTF := func(args ...string) (string, string, int) {
		cmd := exec.Command(terraform, args...)
		cmd.Dir, cmd.Env = tfDir, env
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		code := 0
		if err := cmd.Run(); err != nil {
			exitErr, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatalf("terraform %v: %v", args, err)
			}
			code = exitErr.ExitCode()
		}
		return stdout.String(), stderr.String(), code
	}
	if _, stderr, code := runTF("init", "-no-color"); code != 0 {
		t.Fatalf("terraform init: %s", stderr)
	}
	want = parseTestOutcome(runTF(append([]string{"test"}, args...)...))
	for i, d := range want.diagnostics {
		if opentofu, ok := terraformTestSummaries[d]; ok {
			want.diagnostics[i] = opentofu
		}
	}

	ours := copyTestScenario(t, from)
	t.Setenv("TERRANE_CLI_CONFIG_FILE", rc)
	t.Setenv("TF_PLUGIN_CACHE_DIR", "")
	t.Setenv("TERRANE_SCHEMA_CACHE_DIR", t.TempDir())
	t.Chdir(ours)
	if _, stderr, code := runCommand(t, "init", "-no-color"); code != 0 {
		t.Fatalf("terrane init: %s", stderr)
	}
	return want, parseTestOutcome(runCommand(t, append([]string{"test"}, args...)...))
}

// compareTestOutcomes fails the test where got differs from terraform's
// outcome, want, which must report files test files.
func compareTestOutcomes(t *testing.T, got, want testOutcome, files int) {
	t.Helper()
	if len(want.files) != files || want.summary == "" {
		t.Fatalf("terraform's output was not understood: %+v", want)
	}
	for file, status := range want.files {
		if got.files[file] != status {
			t.Errorf("%s: %q, terraform says %q", file, got.files[file], status)
		}
		if strings.Join(got.runs[file], "\n") != strings.Join(want.runs[file], "\n") {
			t.Errorf("%s runs:\n%s\nterraform:\n%s", file, strings.Join(got.runs[file], "\n"), strings.Join(want.runs[file], "\n"))
		}
	}
	if len(got.files) != len(want.files) {
		t.Errorf("files %v, terraform reports %v", got.files, want.files)
	}
	if got.summary != want.summary || got.code != want.code {
		t.Errorf("summary %q (exit %d), terraform %q (exit %d)", got.summary, got.code, want.summary, want.code)
	}
	// OpenTofu, which Terrane follows, reports an assertion's reference
	// to an undeclared resource first as an unknown variable (the corpus
	// case testing/undeclared_reference shows it); Terraform does not.
	got.diagnostics = slices.DeleteFunc(slices.Clone(got.diagnostics), func(d string) bool { return d == "Error: Unknown variable" })
	if strings.Join(got.diagnostics, "\n") != strings.Join(want.diagnostics, "\n") {
		t.Errorf("diagnostics:\n%s\nterraform:\n%s", strings.Join(got.diagnostics, "\n"), strings.Join(want.diagnostics, "\n"))
	}
}

// copyTestScenario copies a scenario directory into a new one, CLOUD in
// its files replaced by a new directory.
func copyTestScenario(t *testing.T, from string) string {
	t.Helper()
	to, cloud := t.TempDir(), t.TempDir()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, bytes.ReplaceAll(src, []byte("CLOUD"), []byte(cloud)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}
