package e2etest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

const fmtMessyConfig = "resource \"null_resource\" \"a\" {\ncount=\"${var.n}\"\n}\n"
const fmtTidyConfig = "resource \"null_resource\" \"a\" {\n  count = var.n\n}\n"

// fmtIn runs fmt in dir (a project's or another), feeding it stdin.
func fmtIn(t *testing.T, dir string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	p := newBareProject(t)
	p.dir = dir
	return p.runWithInput(stdin, append([]string{"fmt"}, args...)...)
}

func readFmtTestFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestFmtRewritesAndLists(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clitest.WriteFile(t, filepath.Join(dir, "main.tf"), fmtMessyConfig)
	clitest.WriteFile(t, filepath.Join(dir, "ok.tofu"), fmtTidyConfig)
	clitest.WriteFile(t, filepath.Join(dir, "data.tf.json"), `{"a":   1}`)
	clitest.WriteFile(t, filepath.Join(dir, "sub", "x.tf"), fmtMessyConfig)
	stdout, stderr, code := fmtIn(t, dir, "")
	if code != 0 || stdout != "main.tf\n" || stderr != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if got := readFmtTestFile(t, filepath.Join(dir, "main.tf")); got != fmtTidyConfig {
		t.Fatalf("main.tf = %q", got)
	}
	if got := readFmtTestFile(t, filepath.Join(dir, "sub", "x.tf")); got != fmtMessyConfig {
		t.Fatal("subdirectory changed without -recursive")
	}
	if got := readFmtTestFile(t, filepath.Join(dir, "data.tf.json")); got != `{"a":   1}` {
		t.Fatal("JSON file changed")
	}
	stdout, _, code = fmtIn(t, dir, "", "-recursive")
	if code != 0 || stdout != filepath.Join("sub", "x.tf")+"\n" {
		t.Fatalf("-recursive: code %d, stdout %q", code, stdout)
	}
}

func TestFmtCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clitest.WriteFile(t, filepath.Join(dir, "main.tf"), fmtMessyConfig)
	stdout, _, code := fmtIn(t, dir, "", "-check")
	if code != 3 || stdout != "main.tf\n" {
		t.Fatalf("code %d, stdout %q", code, stdout)
	}
	if readFmtTestFile(t, filepath.Join(dir, "main.tf")) != fmtMessyConfig {
		t.Fatal("-check wrote the file")
	}
	stdout, _, code = fmtIn(t, dir, "", "-check", "-list=false")
	if code != 3 || stdout != "" {
		t.Fatalf("-list=false: code %d, stdout %q", code, stdout)
	}
	clitest.WriteFile(t, filepath.Join(dir, "main.tf"), fmtTidyConfig)
	if _, _, code = fmtIn(t, dir, "", "-check"); code != 0 {
		t.Fatalf("formatted input: code %d", code)
	}
}

func TestFmtDiffWithoutWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clitest.WriteFile(t, filepath.Join(dir, "main.tf"), fmtMessyConfig)
	stdout, stderr, code := fmtIn(t, dir, "", "-diff", "-write=false", "-list=false")
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	for _, want := range []string{"--- old/main.tf", "+++ new/main.tf", "-count=\"${var.n}\"", "+  count = var.n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("diff lacks %q:\n%s", want, stdout)
		}
	}
	if readFmtTestFile(t, filepath.Join(dir, "main.tf")) != fmtMessyConfig {
		t.Fatal("-write=false wrote the file")
	}
}

func TestFmtStdin(t *testing.T) {
	t.Parallel()
	stdout, _, code := fmtIn(t, t.TempDir(), fmtMessyConfig, "-")
	if code != 0 || stdout != fmtTidyConfig {
		t.Fatalf("code %d, stdout %q", code, stdout)
	}
}

func TestFmtErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clitest.WriteFile(t, filepath.Join(dir, "broken.tf"), "resource \"a\" \"b\" {\n")
	clitest.WriteFile(t, filepath.Join(dir, "notes.txt"), "x")
	_, stderr, code := fmtIn(t, dir, "", "broken.tf")
	if code != 2 || !strings.Contains(stderr, "on broken.tf line 1") {
		t.Fatalf("syntax error: code %d, stderr %q", code, stderr)
	}
	if readFmtTestFile(t, filepath.Join(dir, "broken.tf")) != "resource \"a\" \"b\" {\n" {
		t.Fatal("a file with syntax errors was rewritten")
	}
	if _, stderr, code = fmtIn(t, dir, "", "notes.txt"); code != 2 || !strings.Contains(stderr, "Invalid file extension") {
		t.Fatalf("bad extension: code %d, stderr %q", code, stderr)
	}
	if _, stderr, code = fmtIn(t, dir, "", "missing"); code != 2 || !strings.Contains(stderr, "No file or directory at missing") {
		t.Fatalf("missing path: code %d, stderr %q", code, stderr)
	}
	// The command's help follows, printed by the command runner, and the
	// process exits 1.
	if stdout, stderr, code := fmtIn(t, dir, "", "-bogus"); code != 1 || !strings.Contains(stdout+stderr, "Usage: terrane [global options] fmt") {
		t.Fatalf("unknown flag: code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
