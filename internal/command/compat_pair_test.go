package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// compatPair is one configuration written twice, once for terraform and
// once for terrane, so that a test can run the same commands in both and
// compare what each prints. terraform is run as a process; terrane through
// Run in this process, in its own directory.
type compatPair struct {
	t         *testing.T
	terraform string
	tfDir     string
	env       []string
	trDir     string
	// clouds are the test providers' object directories by project.
	clouds map[string]string
}

func (p *compatPair) cloudOf(dir string) string { return p.clouds[dir] }

// newCompatPair writes files (CLOUD replaced by a per-tool cloud directory
// for the test providers) and runs init in both directories. It skips the
// test when terraform is not installed. withProviders wires both tools to
// the test providers' mirror.
func newCompatPair(t *testing.T, files map[string]string, withProviders bool) *compatPair {
	t.Helper()
	p := &compatPair{t: t, terraform: requireTerraform(t), tfDir: t.TempDir()}
	home := t.TempDir()
	rc := filepath.Join(home, "terraform.rc")
	rcText := ""
	if withProviders {
		rcText = "provider_installation {\n  filesystem_mirror {\n    path = \"" + providertest.Build(t).Dir + "\"\n  }\n}\n"
	}
	writeFile(t, rc, rcText)
	p.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1"}
	tfCloud, trCloud := t.TempDir(), t.TempDir()
	p.clouds = map[string]string{p.tfDir: tfCloud}
	for name, content := range files {
		writeFile(t, filepath.Join(p.tfDir, filepath.FromSlash(name)), strings.ReplaceAll(content, "CLOUD", tfCloud))
	}
	p.trDir = filepath.Join(t.TempDir(), "project")
	p.clouds[p.trDir] = trCloud
	for name, content := range files {
		writeFile(t, filepath.Join(p.trDir, filepath.FromSlash(name)), strings.ReplaceAll(content, "CLOUD", trCloud))
	}
	t.Setenv("TERRANE_CLI_CONFIG_FILE", rc)
	t.Setenv("TF_CLI_CONFIG_FILE", rc)
	t.Setenv("TF_PLUGIN_CACHE_DIR", "")
	t.Setenv("TF_IN_AUTOMATION", "")
	t.Setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(home, "schemas"))
	t.Chdir(p.trDir)
	p.mustTerraform("init", "-no-color")
	p.mustTerrane("init", "-no-color")
	return p
}

// writeBoth writes a file into both directories, CLOUD replaced as newCompatPair does.
func (p *compatPair) writeBoth(name, content string) {
	p.t.Helper()
	tfCloud := p.cloudOf(p.tfDir)
	writeFile(p.t, filepath.Join(p.tfDir, filepath.FromSlash(name)), strings.ReplaceAll(content, "CLOUD", tfCloud))
	writeFile(p.t, filepath.Join(p.trDir, filepath.FromSlash(name)), strings.ReplaceAll(content, "CLOUD", p.cloudOf(p.trDir)))
}

// runTerraform runs terraform in its directory.
func (p *compatPair) runTerraform(args ...string) (stdout, stderr string, code int) {
	p.t.Helper()
	cmd := exec.Command(p.terraform, args...)
	cmd.Dir, cmd.Env = p.tfDir, p.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		p.t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), code
}

func (p *compatPair) mustTerraform(args ...string) string {
	p.t.Helper()
	out, errOut, code := p.runTerraform(args...)
	if code != 0 {
		p.t.Fatalf("terraform %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// runTerrane runs terrane in its directory.
func (p *compatPair) runTerrane(args ...string) (stdout, stderr string, code int) {
	p.t.Helper()
	var out, errOut strings.Builder
	code = Run(args, Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return out.String(), errOut.String(), code
}

func (p *compatPair) mustTerrane(args ...string) string {
	p.t.Helper()
	out, errOut, code := p.runTerrane(args...)
	if code != 0 {
		p.t.Fatalf("terrane %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// both runs the same command with each tool and fails the test unless
// their standard outputs match once terraform's is put in Terrane's and
// OpenTofu's words (see asTerrane) and random ids are masked.
func (p *compatPair) both(args ...string) {
	p.t.Helper()
	want := asTerrane(p.mustTerraform(args...))
	got := comparableText(p.mustTerrane(args...))
	if got != want {
		p.t.Errorf("terrane %s differs from terraform's\n%s", strings.Join(args, " "), lineDiff(got, want))
	}
}

// terraformWording are the places where Terraform 1.11 words its human
// output differently from OpenTofu, which Terrane follows.
var terraformWording = strings.NewReplacer(
	// opentofu/opentofu#3159 (internal/command/jsonformat/plan.go,
	// actionDescription).
	"~ update in-place\n", "~ update in-place (current -> planned)\n",
	// internal/command/jsonformat/plan.go, resourceChangeComment.
	"is tainted, so must be replaced", "is tainted, so it must be replaced",
	"Terraform", "Terrane",
	"terraform apply", "terrane apply",
	"terraform plan", "terrane plan",
)

// asTerrane is terraform's output in Terrane's and OpenTofu's words, made
// comparable.
func asTerrane(text string) string {
	return comparableText(terraformWording.Replace(text))
}

// comparableText masks random ids, unwraps prose (see joinProse) and sorts
// the progress lines of the refresh that starts a plan, which come in
// whatever order the objects were read.
func comparableText(text string) string {
	text = uuidPattern.ReplaceAllString(maskIDs(text), "(id)")
	text = timestampPattern.ReplaceAllString(text, "(time)")
	lines := strings.Split(text, "\n")
	first := 0
	for first < len(lines) && progressLine(lines[first]) {
		first++
	}
	sort.Strings(lines[:first])
	return joinProse(strings.Join(lines, "\n"))
}

// progressLine reports whether a line is one of the progress messages
// that start a plan, which both tools write in the order their parallel
// work finishes.
func progressLine(line string) bool {
	for _, what := range []string{": Refreshing state...", ": Reading...", ": Read complete after"} {
		if strings.Contains(line, what) {
			return true
		}
	}
	return false
}

// timestampPattern matches the RFC 3339 times objects record.
var timestampPattern = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)

// uuidPattern matches the random ids of terraform_data and of the test
// providers' objects wherever they appear.
var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{16}\b`)

// joinProse joins the lines of wrapped paragraphs, so that text wrapped
// around a product name of another length compares equal: a line that
// starts with a letter continues a previous line that does.
func joinProse(text string) string {
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	for i, line := range lines {
		if i > 0 && startsWithLetter(line) && startsWithLetter(lines[i-1]) {
			out[len(out)-1] += " " + line
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func startsWithLetter(line string) bool {
	return line != "" && (line[0] >= 'a' && line[0] <= 'z' || line[0] >= 'A' && line[0] <= 'Z')
}
