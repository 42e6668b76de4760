package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fmtCompatDir holds messy configuration files covering every construct
// fmt rewrites; each must come out of terrane fmt exactly as out of
// terraform fmt.
const fmtCompatDir = "testdata/compat/fmt"

// fmtCompatInvalidDir holds files with syntax errors, which both tools
// must refuse with the same diagnostics.
const fmtCompatInvalidDir = "testdata/compat/fmt-invalid"

// requireTerraform returns the path of the terraform binary the
// compatibility tests compare against, skipping the test without one.
func requireTerraform(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not installed; compatibility is not checked")
	}
	if testing.Short() {
		t.Skip("compatibility with terraform is not checked in -short mode")
	}
	return path
}

// terraformEnv is an environment that keeps terraform off the network
// and away from the user's own configuration and variables.
func terraformEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	cliConfig := filepath.Join(home, "terraform.rc")
	if err := os.WriteFile(cliConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TF_CLI_CONFIG_FILE=" + cliConfig,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
	}
}

// fmtOutcome is what a user sees from one fmt run.
type fmtOutcome struct {
	stdout string
	errors []string
	code   int
}

func (o fmtOutcome) equal(other fmtOutcome) bool {
	return o.code == other.code && o.stdout == other.stdout &&
		strings.Join(o.errors, "\n") == strings.Join(other.errors, "\n")
}

func runTerraformFmt(t *testing.T, terraform, dir string, stdin []byte, args ...string) fmtOutcome {
	t.Helper()
	cmd := exec.Command(terraform, append([]string{"fmt", "-no-color"}, args...)...)
	cmd.Dir, cmd.Env = dir, terraformEnv(t)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		t.Fatalf("running terraform fmt: %s", err)
	}
	return fmtOutcome{stdout: stdout.String(), errors: errorSummaries(stderr.String()), code: cmd.ProcessState.ExitCode()}
}

// runTerraneFmt runs terrane fmt in-process in the current directory.
func runTerraneFmt(stdin []byte, args ...string) fmtOutcome {
	var stdout, stderr bytes.Buffer
	code := runFmt(append([]string{"-no-color"}, args...), bytes.NewReader(stdin), &stdout, &stderr)
	return fmtOutcome{stdout: stdout.String(), errors: errorSummaries(stderr.String()), code: code}
}

func corpusFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fmtCompatDir, "*.tf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fmt corpus files: %v", err)
	}
	return files
}

// TestFmtStdinMatchesTerraform formats every corpus file and every
// invalid file through stdin, as editors do, with the plain, -check,
// -diff, -check -diff and -list -check forms, and requires identical
// output, errors and exit status.
func TestFmtStdinMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	work := t.TempDir()
	invalid, err := filepath.Glob(filepath.Join(fmtCompatInvalidDir, "*.tf"))
	if err != nil || len(invalid) == 0 {
		t.Fatalf("no invalid fmt inputs: %v", err)
	}
	argSets := [][]string{{"-"}, {"-check", "-"}, {"-diff", "-"}, {"-check", "-diff", "-"}, {"-list=true", "-check", "-"}}
	for _, file := range append(corpusFiles(t), invalid...) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			for _, args := range argSets {
				want := runTerraformFmt(t, terraform, work, src, args...)
				got := runTerraneFmt(src, args...)
				if !got.equal(want) {
					t.Errorf("fmt %s differs\nterrane (status %d, errors %q):\n%s\nterraform (status %d, errors %q):\n%s",
						strings.Join(args, " "), got.code, got.errors, got.stdout, want.code, want.errors, want.stdout)
				}
			}
		})
	}
}

// TestFmtDirectoryMatchesTerraform runs both tools over copies of the
// corpus directory, as users run fmt in a module: -check -diff first
// (listing and diffs, nothing written), then the default write mode with
// -recursive, after which every file must be the same in both copies.
func TestFmtDirectoryMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	terraformDir, terraneDir := t.TempDir(), t.TempDir()
	copyDir(t, fmtCompatDir, terraformDir)
	copyDir(t, fmtCompatDir, terraneDir)
	t.Chdir(terraneDir)
	runs := [][]string{{"-check", "-diff"}, {"-check", "-recursive"}, {"-list=false", "-check"}, {"-recursive"}, {"-check", "-recursive"}}
	for _, args := range runs {
		want := runTerraformFmt(t, terraform, terraformDir, nil, args...)
		got := runTerraneFmt(nil, args...)
		if !got.equal(want) {
			t.Errorf("fmt %s differs\nterrane (status %d, errors %q):\n%s\nterraform (status %d, errors %q):\n%s",
				strings.Join(args, " "), got.code, got.errors, got.stdout, want.code, want.errors, want.stdout)
		}
		t.Logf("fmt %s: status %d, %d bytes of output", strings.Join(args, " "), want.code, len(want.stdout))
	}
	compareTrees(t, terraformDir, terraneDir)
}

// compareTrees requires every file under want to exist with the same
// content under got.
func compareTrees(t *testing.T, want, got string) {
	t.Helper()
	err := filepath.WalkDir(want, func(path string, entry os.DirEntry, err error) error {
		if err != nil || entry.IsDir() {
			return err
		}
		rel, err := filepath.Rel(want, path)
		if err != nil {
			return err
		}
		wantBytes, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		gotBytes, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(gotBytes, wantBytes) {
			t.Errorf("%s after fmt differs\nterrane:\n%s\nterraform:\n%s", rel, gotBytes, wantBytes)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
