package corpus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// stepTimeout bounds one command of one program.
const stepTimeout = 2 * time.Minute

// programs are what a case runs side by side, the oracle first.
type programs struct {
	tofu, terrane string
	cliConfig     string // a CLI configuration with both mirrors
}

var (
	setupOnce sync.Once
	setupProg *programs
	setupErr  error
	setupSkip string
)

// TestCorpus runs every case under cases/ through OpenTofu and Terrane and
// requires the same results. CORPUS_PARALLEL sets how many cases run at
// once (default: twice the number of CPUs, since the programs mostly wait
// on each other and their providers).
func TestCorpus(t *testing.T) {
	prog := setup(t)
	root := filepath.Join(sourceDir(t), "cases")
	cases, err := loadCases(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases under cases/")
	}
	parallel := 2 * runtime.NumCPU()
	if n, err := strconv.Atoi(os.Getenv("CORPUS_PARALLEL")); err == nil && n > 0 {
		parallel = n
	}
	slots := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for _, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(c.name, func(t *testing.T) {
				slots <- struct{}{}
				defer func() { <-slots }()
				runCase(t, prog, c)
			})
		}()
	}
	wg.Wait()
}

func loadCases(root string) ([]*caseFile, error) {
	var cases []*caseFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".txt") {
			return err
		}
		c, err := loadCase(root, path)
		if err != nil {
			return err
		}
		cases = append(cases, c)
		return nil
	})
	return cases, err
}

func sourceDir(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the corpus sources")
	}
	return filepath.Dir(file)
}

// setup builds Terrane and the test providers and finds the oracle, once.
// Without the oracle the corpus is skipped, unless CI is set: then it
// fails, so that a machine missing the oracle never passes silently.
func setup(t *testing.T) *programs {
	t.Helper()
	repo := filepath.Dir(sourceDir(t))
	setupOnce.Do(func() {
		tofu, oracleMirror, err := findOracle(repo)
		if err != nil {
			if os.Getenv("CI") == "" {
				setupSkip = err.Error()
				return
			}
			setupErr = err
			return
		}
		mirror := providertest.Build(t)
		bin, err := os.MkdirTemp("", "terrane-corpus-")
		if err != nil {
			setupErr = err
			return
		}
		terrane := filepath.Join(bin, "terrane")
		build := exec.Command("go", "build", "-o", terrane, "./cmd/terrane")
		build.Dir = repo
		if out, err := build.CombinedOutput(); err != nil {
			setupErr = fmt.Errorf("building terrane: %v\n%s", err, out)
			return
		}
		rc := filepath.Join(bin, "cli.tfrc")
		config := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n  filesystem_mirror {\n    path = %q\n  }\n}\n",
			oracleMirror, mirror.Dir)
		if err := os.WriteFile(rc, []byte(config), 0o644); err != nil {
			setupErr = err
			return
		}
		setupProg = &programs{tofu: tofu, terrane: terrane, cliConfig: rc}
	})
	if setupSkip != "" {
		t.Skipf("the oracle is not installed (set CI to make this a failure): %s", setupSkip)
	}
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return setupProg
}

// findOracle returns OpenTofu's executable and the oracle's provider
// mirror: from TERRANE_ORACLE_DIR when it holds an installed oracle, else
// by running the oracle's install script (TERRANE_ORACLE_INSTALL, else
// ../shared/oracle/install beside the repository), which is idempotent.
func findOracle(repo string) (tofu, mirror string, err error) {
	dir := os.Getenv("TERRANE_ORACLE_DIR")
	if dir == "" || !fileExists(filepath.Join(dir, "env")) {
		script := os.Getenv("TERRANE_ORACLE_INSTALL")
		if script == "" {
			script = filepath.Join(repo, "..", "shared", "oracle", "install")
		}
		if !fileExists(script) {
			return "", "", fmt.Errorf("no oracle install script at %s (set TERRANE_ORACLE_INSTALL)", script)
		}
		var stderr bytes.Buffer
		cmd := exec.Command(script)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", "", fmt.Errorf("%s: %v\n%s", script, err, stderr.String())
		}
		dir = strings.TrimSpace(string(out))
	}
	vars, err := readEnvFile(filepath.Join(dir, "env"))
	if err != nil {
		return "", "", err
	}
	if vars["TOFU"] == "" || vars["ORACLE_MIRROR"] == "" {
		return "", "", fmt.Errorf("%s/env names no TOFU or ORACLE_MIRROR", dir)
	}
	return vars["TOFU"], vars["ORACLE_MIRROR"], nil
}

// readEnvFile reads the `export NAME="VALUE"` lines of the oracle's env file.
func readEnvFile(path string) (map[string]string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	vars := map[string]string{}
	scanner := bufio.NewScanner(bytes.NewReader(src))
	for scanner.Scan() {
		line := strings.TrimPrefix(strings.TrimSpace(scanner.Text()), "export ")
		name, value, ok := strings.Cut(line, "=")
		if ok {
			vars[name] = strings.Trim(value, `"`)
		}
	}
	return vars, scanner.Err()
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// An observation is one command's result on one side: a step of the
// script, or a check the runner adds after it.
type observation struct {
	label   string // what ran, for messages
	tfStep  int    // the script's tf step it belongs to (1-based)
	main    bool   // the tf step itself, not a check added after it
	asJSON  bool   // stdout is a JSON document to compare as one
	stdout  string
	stderr  string
	code    int
	failure string // the command could not be run or timed out
}

// A side is one program's run of a case, in a directory of its own.
type side struct {
	name      string // "tofu" or "terrane"
	exe       string
	dir, home string
	cloud     string // where the test providers keep their objects
	env       []string
}

func newSide(t *testing.T, base, name, exe, cliConfig string) *side {
	s := &side{name: name, exe: exe, dir: filepath.Join(base, name), home: filepath.Join(base, name+"-home"),
		cloud: filepath.Join(base, name+"-cloud")}
	for _, d := range []string{s.dir, s.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + s.home,
		"TMPDIR=" + os.TempDir(),
		"CHECKPOINT_DISABLE=1",
		"TF_CLI_CONFIG_FILE=" + cliConfig,
		"TESTCLOUD_DIR=" + s.cloud,
	}
	return s
}

// run runs the script on this side and returns what it observed.
func (s *side) run(c *caseFile) []observation {
	var obs []observation
	stdin, tfStep := "", 0
	for _, st := range c.steps {
		switch st.verb {
		case "tf":
			tfStep++
			args := s.expand(st.args)
			label := fmt.Sprintf("step %d (line %d) `tf %s`", tfStep, st.line, strings.Join(st.args, " "))
			o := s.exec(args, stdin)
			o.label, o.tfStep, o.main = label, tfStep, true
			obs = append(obs, o)
			stdin = ""
			obs = append(obs, s.checksAfter(args, tfStep)...)
		case "stdin":
			stdin = strings.ReplaceAll(strings.Join(st.args, " "), `\n`, "\n")
		case "stdinfile":
			obs = append(obs, s.fileOp(st, func() error {
				src, err := os.ReadFile(filepath.Join(s.dir, st.args[0]))
				stdin = string(src)
				return err
			})...)
		case "env":
			s.env = append(s.env, s.expand(st.args)...)
		case "cp":
			obs = append(obs, s.fileOp(st, func() error {
				src, err := os.ReadFile(filepath.Join(s.dir, st.args[0]))
				if err != nil {
					return err
				}
				dst := filepath.Join(s.dir, st.args[1])
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					return err
				}
				return os.WriteFile(dst, src, 0o644)
			})...)
		case "rm":
			obs = append(obs, s.fileOp(st, func() error {
				for _, name := range st.args {
					if err := os.RemoveAll(filepath.Join(s.dir, name)); err != nil {
						return err
					}
				}
				return nil
			})...)
		case "mkdir":
			obs = append(obs, s.fileOp(st, func() error { return os.MkdirAll(filepath.Join(s.dir, st.args[0]), 0o755) })...)
		}
	}
	final := [][]string{{"show", "-json"}, {"output", "-json"}, {"state", "pull"}}
	for _, args := range final {
		o := s.exec(args, "")
		o.label, o.asJSON = "final `"+strings.Join(args, " ")+"`", true
		obs = append(obs, o)
	}
	return obs
}

// checksAfter runs what the runner compares after a step: the JSON of a
// saved plan, and the state after a command that may change it.
func (s *side) checksAfter(args []string, tfStep int) []observation {
	command := firstCommand(args)
	var checks [][]string
	if out := planOut(args); command == "plan" && out != "" {
		checks = append(checks, []string{"show", "-json", out})
	}
	switch command {
	case "apply", "destroy", "import", "refresh", "taint", "untaint", "state", "workspace":
		if !(command == "state" && slices.Contains(args, "pull")) {
			checks = append(checks, []string{"state", "pull"})
		}
	}
	var obs []observation
	for _, check := range checks {
		o := s.exec(check, "")
		o.label = fmt.Sprintf("after step %d: `%s`", tfStep, strings.Join(check, " "))
		o.tfStep, o.asJSON = tfStep, true
		obs = append(obs, o)
	}
	return obs
}

// firstCommand is the command word of a tf step, after a -chdir option.
func firstCommand(args []string) string {
	for _, arg := range args {
		if !strings.HasPrefix(arg, "-") {
			return arg
		}
	}
	return ""
}

// planOut returns the file a plan step saves its plan to.
func planOut(args []string) string {
	for i, arg := range args {
		if out, ok := strings.CutPrefix(arg, "-out="); ok {
			return out
		}
		if arg == "-out" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// fileOp runs a file operation of the script; its failure is observed, so
// the comparison reports it.
func (s *side) fileOp(st step, op func() error) []observation {
	o := observation{label: fmt.Sprintf("line %d `%s`", st.line, st.verb)}
	if err := op(); err != nil {
		o.failure = err.Error()
	}
	return []observation{o}
}

// expand replaces $DIR in arguments with the side's working directory.
func (s *side) expand(args []string) []string {
	out := make([]string, len(args))
	for i, arg := range args {
		out[i] = strings.ReplaceAll(arg, "$DIR", s.dir)
	}
	return out
}

func (s *side) exec(args []string, stdin string) observation {
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, s.exe, args...)
	cmd.Dir, cmd.Env = s.dir, s.env
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	o := observation{stdout: stdout.String(), stderr: stderr.String()}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.failure = fmt.Sprintf("timed out after %s", stepTimeout)
	case errors.As(err, &exitErr):
		o.code = exitErr.ExitCode()
	case err != nil:
		o.failure = err.Error()
	}
	return o
}

// runCase runs one case on both sides at once and compares what they saw.
func runCase(t *testing.T, prog *programs, c *caseFile) {
	base := t.TempDir()
	tofu := newSide(t, base, "tofu", prog.tofu, prog.cliConfig)
	terrane := newSide(t, base, "terrane", prog.terrane, prog.cliConfig)
	for _, s := range []*side{tofu, terrane} {
		if err := c.writeFiles(s.dir); err != nil {
			t.Fatal(err)
		}
	}
	var want, got []observation
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); want = tofu.run(c) }()
	go func() { defer wg.Done(); got = terrane.run(c) }()
	wg.Wait()
	compareCase(t, c, tofu, terrane, want, got)
}
