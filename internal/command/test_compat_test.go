package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
	code        int
}

var (
	testFileLine = regexp.MustCompile(`^(\S+\.tftest\.hcl)\.\.\. (pass|fail|skip|in progress|tearing down)$`)
	testRunLine  = regexp.MustCompile(`^  run "[^"]+"\.\.\. (pass|fail|skip)$`)
	testDiagLine = regexp.MustCompile(`^(?:│ )?((?:Error|Warning): .*)$`)
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
	}
	return out
}

// TestTestCommandMatchesTerraform runs one suite of test files, written
// with terraform_data and a module so that it needs no provider, through
// terraform test and terrane test and compares what they report: run
// outcomes (applies, plans, failed assertions, expected failures of
// variables, outputs, checks and resources, a missing expected failure
// and the skips after it, plan_options, run outputs passed to variables,
// an override) and the errors.
func TestTestCommandMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	scenario, err := filepath.Abs(filepath.Join("testdata", "test-compat"))
	if err != nil {
		t.Fatal(err)
	}
	tfDir := copyTestScenario(t, scenario)
	env := terraformEnv(t)
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
	want := parseTestOutcome(runTF("test", "-no-color"))

	ours := copyTestScenario(t, scenario)
	rc := filepath.Join(t.TempDir(), "terraformrc")
	writeFile(t, rc, "")
	t.Setenv("TERRANE_CLI_CONFIG_FILE", rc)
	t.Setenv("TERRANE_SCHEMA_CACHE_DIR", t.TempDir())
	t.Chdir(ours)
	if _, stderr, code := runCommand(t, "init", "-no-color"); code != 0 {
		t.Fatalf("terrane init: %s", stderr)
	}
	got := parseTestOutcome(runCommand(t, "test", "-no-color"))

	if len(want.files) != 2 || want.summary == "" {
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
	if got.summary != want.summary || got.code != want.code {
		t.Errorf("summary %q (exit %d), terraform %q (exit %d)", got.summary, got.code, want.summary, want.code)
	}
	if strings.Join(got.diagnostics, "\n") != strings.Join(want.diagnostics, "\n") {
		t.Errorf("diagnostics:\n%s\nterraform:\n%s", strings.Join(got.diagnostics, "\n"), strings.Join(want.diagnostics, "\n"))
	}
}

// copyTestScenario copies a scenario directory into a new one.
func copyTestScenario(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
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
		return os.WriteFile(dst, src, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}
