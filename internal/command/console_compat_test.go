package command

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// consoleCompatDir holds the configuration and files both consoles run in,
// and expressions.txt, the inputs compared.
const consoleCompatDir = "testdata/compat/console"

// consoleOutcome is what a user sees from one console session: the printed
// result, the error summaries and the exit status.
type consoleOutcome struct {
	stdout string
	errors []string
	code   int
}

// TestConsoleMatchesTerraform feeds every input of expressions.txt, one per
// session, to `terraform console` and to `terrane console` in copies of the
// same working directory, and requires the same printed value or, for
// inputs that fail, the same error summaries. Terraform prints only the
// last result of piped input, hence one session per input.
func TestConsoleMatchesTerraform(t *testing.T) {
	terraform := requireTerraform(t)
	inputs := readConsoleInputs(t)
	want := runTerraformConsoles(t, terraform, inputs)

	dir := t.TempDir()
	copyDir(t, consoleCompatDir, dir)
	t.Chdir(dir)
	for i, input := range inputs {
		if got := runTerraneConsole(input); !sameOutcome(got, want[i]) {
			t.Errorf("console input %s\n%s", input, describeDifference(got, want[i], "terraform"))
		}
	}
	for _, expectation := range consoleExpectations {
		if got := runTerraneConsole(expectation.input); !sameOutcome(got, expectation.want) {
			t.Errorf("console input %s (%s)\n%s", expectation.input, expectation.why, describeDifference(got, expectation.want, "expected"))
		}
	}
}

// consoleExpectations are inputs not compared with terraform: functions
// only OpenTofu has, with the results its documentation gives, and inputs
// where Terrane deliberately differs from terraform 1.11, with the reason.
var consoleExpectations = []struct {
	input string
	want  consoleOutcome
	why   string
}{
	{`templatestring("Hello, $${name}!", {name = "world"})`, consoleOutcome{stdout: "\"Hello, world!\"\n"}, "OpenTofu only"},
	{`base64gunzip("H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA==")`, consoleOutcome{stdout: "\"hello\"\n"}, "OpenTofu only"},
	{`base64gunzip(base64gzip("round\ntrip"))`, consoleOutcome{stdout: "<<EOT\nround\ntrip\nEOT\n"}, "OpenTofu only"},
	{`cidrcontains("192.168.2.0/24", "192.168.2.1")`, consoleOutcome{stdout: "true\n"}, "OpenTofu only"},
	{`cidrcontains("192.168.2.0/24", "192.168.3.0/25")`, consoleOutcome{stdout: "false\n"}, "OpenTofu only"},
	{`cidrcontains("fd00:fd12:3456:7890::/56", "fd00:fd12:3456:7890:00ff::/64")`, consoleOutcome{stdout: "true\n"}, "OpenTofu only"},
	{`urldecode("mary+jane%26bob")`, consoleOutcome{stdout: "\"mary jane&bob\"\n"}, "OpenTofu only"},
	{`issensitive(var.password)`, consoleOutcome{stdout: "true\n"}, "OpenTofu only"},
	{`issensitive(var.name)`, consoleOutcome{stdout: "false\n"}, "OpenTofu only"},
	{`provider::terraform::encode_expr({a = "b"})`, consoleOutcome{stdout: "<<EOT\n{\n  a = \"b\"\n}\nEOT\n"}, "OpenTofu only"},
	{`provider::terraform::encode_expr([1, 2, 3])`, consoleOutcome{stdout: "\"[1, 2, 3]\"\n"}, "OpenTofu only"},
	{`provider::terraform::encode_tfvars({a = "b", c = [1, 2]})`, consoleOutcome{stdout: "<<EOT\na = \"b\"\nc = [1, 2]\n\nEOT\n"}, "OpenTofu only"},
	{`provider::terraform::decode_tfvars("a = 1")`, consoleOutcome{stdout: "{\n  \"a\" = 1\n}\n"}, "OpenTofu only"},
	{`element(["a", "b", "c"], -1)`, consoleOutcome{stdout: "\"c\"\n"},
		"negative indexes count from the end, as newer cty and Terraform's documentation say; terraform 1.11 crashes"},
	{`log(-1, 2)`, consoleOutcome{code: 1, errors: []string{`Error in function call: Call to function "log" failed: the logarithm of -1 to base 2 is not a real number.`}},
		"terraform crashes and prints a Go stack trace"},
	{`pow(-1, 0.5)`, consoleOutcome{code: 1, errors: []string{`Error in function call: Call to function "pow" failed: -1 to the power of 0.5 is not a real number.`}},
		"terraform crashes and prints a Go stack trace"},
	{`sort([[1]])`, consoleOutcome{code: 1, errors: []string{`Invalid function argument: Invalid value for "list" parameter: element 0: string required, but have tuple.`}},
		"newer cty names the type it found"},
}

// runTerraneConsole runs one terrane console session in the current
// directory.
func runTerraneConsole(input string) consoleOutcome {
	var stdout, stderr bytes.Buffer
	code := runConsole([]string{"-no-color"}, strings.NewReader(input+"\n"), &stdout, &stderr)
	return consoleOutcome{stdout: stdout.String(), errors: errorSummaries(stderr.String()), code: code}
}

func describeDifference(got, want consoleOutcome, wantName string) string {
	return fmt.Sprintf("terrane (status %d):\n%s%s\n%s (status %d):\n%s%s",
		got.code, got.stdout, strings.Join(got.errors, "\n"),
		wantName, want.code, want.stdout, strings.Join(want.errors, "\n"))
}

func sameOutcome(a, b consoleOutcome) bool {
	return a.code == b.code && a.stdout == b.stdout && strings.Join(a.errors, "\n") == strings.Join(b.errors, "\n")
}

// readConsoleInputs returns the non-blank, non-comment lines of
// expressions.txt.
func readConsoleInputs(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(consoleCompatDir, "expressions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var inputs []string
	scanner := bufio.NewScanner(bytes.NewReader(src))
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			inputs = append(inputs, line)
		}
	}
	if len(inputs) == 0 {
		t.Fatal("expressions.txt holds no inputs")
	}
	return inputs
}

// runTerraformConsoles runs one terraform console per input, a few at a
// time. Each worker has its own copy of the working directory because
// terraform locks the (empty) local state while its console runs.
func runTerraformConsoles(t *testing.T, terraform string, inputs []string) []consoleOutcome {
	t.Helper()
	const workers = 3
	outcomes := make([]consoleOutcome, len(inputs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		dir := t.TempDir()
		copyDir(t, consoleCompatDir, dir)
		env := terraformEnv(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				cmd := exec.Command(terraform, "console", "-no-color")
				cmd.Dir, cmd.Env = dir, env
				cmd.Stdin = strings.NewReader(inputs[i] + "\n")
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				outcomes[i] = consoleOutcome{stdout: withoutLockProgress(stdout.String()), errors: errorSummaries(stderr.String()), code: cmd.ProcessState.ExitCode()}
				if err != nil && cmd.ProcessState == nil {
					outcomes[i].errors = append(outcomes[i].errors, "could not run terraform: "+err.Error())
				}
			}
		}()
	}
	for i := range inputs {
		next <- i
	}
	close(next)
	wg.Wait()
	return outcomes
}

// lockProgressPattern matches what terraform prints about its state lock
// when taking or releasing it is slow, which happens on a loaded machine.
var lockProgressPattern = regexp.MustCompile(`(?m)^(Acquiring|Releasing) state lock\. This may take a few moments\.\.\.\n`)

func withoutLockProgress(stdout string) string {
	return lockProgressPattern.ReplaceAllString(stdout, "")
}

var (
	errorSummaryPattern = regexp.MustCompile(`^Error: (.*)$`)
	// sourceLinePattern matches what a diagnostic shows of the source:
	// where it is, the lines themselves and the values in them.
	sourceLinePattern = regexp.MustCompile(`^(  on .* line \d+|  \(source code not available\)|\s+\d+: |\s+[├│])`)
)

// errorSummaries lists every error diagnostic as its summary and, after
// a colon, its detail with whitespace runs collapsed, as the two tools
// wrap long lines differently.
func errorSummaries(stderr string) []string {
	var diagnostics []string
	var current []string
	flush := func() {
		if len(current) > 0 {
			diagnostics = append(diagnostics, strings.Join(strings.Fields(strings.Join(current, " ")), " "))
		}
		current = nil
	}
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimPrefix(strings.TrimPrefix(line, "│ "), "│")
		switch {
		case strings.HasPrefix(line, "╷") || strings.HasPrefix(line, "╵"):
			flush()
		case errorSummaryPattern.MatchString(line):
			flush()
			current = []string{errorSummaryPattern.FindStringSubmatch(line)[1] + ":"}
		case current != nil && !sourceLinePattern.MatchString(line):
			current = append(current, line)
		}
	}
	flush()
	return diagnostics
}

// copyDir copies the tree at src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
