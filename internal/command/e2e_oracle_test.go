package command

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// oracleProject is one configuration set up twice: for terrane, and, where
// terraform is installed, for terraform with the same test providers and a
// cloud directory of its own. Tests of language semantics run both and
// require them to agree where Terraform and OpenTofu do.
type oracleProject struct {
	*e2eProject
	terraform string // empty when terraform is not installed
	tf        *e2eProject
	tfEnv     []string
}

// oracleResult is what one program printed and its exit status.
type oracleResult struct {
	stdout, stderr string
	code           int
}

// newOracleProject writes files (main.tf and any others, such as module
// sources, with CLOUD replaced by each program's cloud directory) and runs
// init with both programs.
func newOracleProject(t *testing.T, files map[string]string) *oracleProject {
	t.Helper()
	mirror := providertest.Build(t)
	o := &oracleProject{e2eProject: &e2eProject{t: t, cloud: t.TempDir()}}
	o.dir = useMirror(t, mirror.Dir, "")
	o.writeFiles(o.e2eProject, files)
	o.mustRun("init", "-no-color")
	if path, err := exec.LookPath("terraform"); err == nil && !testing.Short() {
		o.terraform = path
		o.tf = &e2eProject{t: t, dir: t.TempDir(), cloud: t.TempDir()}
		rc := filepath.Join(t.TempDir(), "terraformrc")
		writeFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")
		o.tfEnv = append(terraformEnv(t), "TF_CLI_CONFIG_FILE="+rc)
		o.writeFiles(o.tf, files)
		if res := o.runTerraform("init", "-no-color"); res.code != 0 {
			t.Fatalf("terraform init: exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
	}
	return o
}

func (o *oracleProject) writeFiles(p *e2eProject, files map[string]string) {
	for name, src := range files {
		writeFile(o.t, filepath.Join(p.dir, name), strings.ReplaceAll(src, "CLOUD", p.cloud))
	}
}

// rewrite replaces files in both projects.
func (o *oracleProject) rewrite(files map[string]string) {
	o.writeFiles(o.e2eProject, files)
	if o.tf != nil {
		o.writeFiles(o.tf, files)
	}
}

// runTerraform runs terraform in its project.
func (o *oracleProject) runTerraform(args ...string) oracleResult {
	o.t.Helper()
	var stdout, stderr strings.Builder
	cmd := exec.Command(o.terraform, args...)
	cmd.Dir, cmd.Env = o.tf.dir, o.tfEnv
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := oracleResult{stdout: stdout.String(), stderr: stderr.String()}
	if exitErr, ok := err.(*exec.ExitError); ok {
		res.code = exitErr.ExitCode()
	} else if err != nil {
		o.t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	return res
}

// runTerrane runs terrane in its project.
func (o *oracleProject) runTerrane(args ...string) oracleResult {
	o.t.Helper()
	stdout, stderr, code := o.run(args...)
	return oracleResult{stdout: stdout, stderr: stderr, code: code}
}

// agree runs one command with both programs and requires the same exit
// status and the same error and warning summaries; it returns terrane's
// result for the test's own assertions. Without terraform it runs terrane
// only.
func (o *oracleProject) agree(args ...string) oracleResult {
	o.t.Helper()
	got := o.runTerrane(args...)
	if o.terraform == "" {
		return got
	}
	want := o.runTerraform(args...)
	command := strings.Join(args, " ")
	if got.code != want.code {
		o.t.Errorf("%s: terrane exits %d, terraform %d\nterrane:\n%s%s\nterraform:\n%s%s", command, got.code, want.code,
			got.stdout, got.stderr, want.stdout, want.stderr)
	}
	gotSummaries, wantSummaries := diagnosticSummaries(got.stdout+got.stderr), diagnosticSummaries(want.stdout+want.stderr)
	if !slices.Equal(gotSummaries, wantSummaries) {
		o.t.Errorf("%s: terrane reports %q, terraform %q\nterrane:\n%s%s\nterraform:\n%s%s", command, gotSummaries, wantSummaries,
			got.stdout, got.stderr, want.stdout, want.stderr)
	}
	return got
}

var diagnosticSummaryPattern = regexp.MustCompile(`(?m)^(?:│ )?((?:Error|Warning): .*)$`)

// diagnosticSummaries lists the "Error: ..." and "Warning: ..." lines of
// a human-readable output, sorted, as both programs print them.
func diagnosticSummaries(output string) []string {
	var out []string
	for _, match := range diagnosticSummaryPattern.FindAllStringSubmatch(output, -1) {
		out = append(out, strings.TrimSpace(strings.ReplaceAll(match[1], "Terraform", "Terrane")))
	}
	slices.Sort(out)
	return out
}

// expectCode fails the test unless res exited with code.
func (o *oracleProject) expectCode(what string, res oracleResult, code int) {
	o.t.Helper()
	if res.code != code {
		o.t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, res.code, code, res.stdout, res.stderr)
	}
}
