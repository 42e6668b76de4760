package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// programs are what a case runs side by side, the oracle first.
type programs struct {
	tofu, terrane string
	cliConfig     string // a CLI configuration with both mirrors
	// oracle is the fingerprint of what decides OpenTofu's observations
	// besides the case (recording_test.go).
	oracle string
	mode   oracleMode
	dir    string // the corpus sources
	// ran counts the cases run; unrecorded and sampled those of them that
	// ran OpenTofu too.
	ran, unrecorded, sampled atomic.Int64
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
	t.Logf("OpenTofu ran for %d of %d cases: %d without a current recording (now recorded under oracle/), %d sampled (CORPUS_ORACLE_SEED=%d)",
		prog.unrecorded.Load()+prog.sampled.Load(), prog.ran.Load(), prog.unrecorded.Load(), prog.sampled.Load(), prog.mode.seed)
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
		mirrorPaths.oracle, mirrorPaths.providers = oracleMirror, mirror.Dir
		rc := filepath.Join(bin, "cli.tfrc")
		config := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n  filesystem_mirror {\n    path = %q\n  }\n}\n",
			oracleMirror, mirror.Dir)
		if err := os.WriteFile(rc, []byte(config), 0o644); err != nil {
			setupErr = err
			return
		}
		fingerprint, err := oracleFingerprint(tofu, oracleMirror, mirror.Dir, sourceDir(t))
		if err != nil {
			setupErr = err
			return
		}
		setupProg = &programs{tofu: tofu, terrane: terrane, cliConfig: rc, oracle: fingerprint,
			mode: readOracleMode(t), dir: sourceDir(t)}
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

// runCase runs one case through Terrane and compares what it saw with
// OpenTofu's recording of the case, running OpenTofu beside it when the
// recording is missing or stale or the case is sampled.
func runCase(t *testing.T, prog *programs, c *caseFile) {
	base := t.TempDir()
	tofu := newSide(t, base, "tofu", prog.tofu, prog.cliConfig)
	terrane := newSide(t, base, "terrane", prog.terrane, prog.cliConfig)
	path, fingerprint := recordingPath(prog.dir, c.name), caseFingerprint(prog.oracle, c)
	rec, err := loadRecording(path, fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	live := rec == nil || prog.mode.sampled(c.name)
	prog.ran.Add(1)
	switch {
	case rec == nil:
		prog.unrecorded.Add(1)
	case live:
		prog.sampled.Add(1)
	}
	sides := []*side{terrane}
	if live {
		sides = append(sides, tofu)
	}
	for _, s := range sides {
		if err := c.writeFiles(s.dir); err != nil {
			t.Fatal(err)
		}
	}
	var want, got []observation
	var wg sync.WaitGroup
	if live {
		wg.Add(1)
		go func() { defer wg.Done(); want = recorded(tofu, tofu.run(c)) }()
	}
	got = terrane.run(c)
	wg.Wait()
	switch {
	case !live:
		want = rec
	case rec == nil || !checkRecording(t, path, rec, want):
		if err := saveRecording(path, fingerprint, want); err != nil {
			t.Errorf("recording OpenTofu's run: %v", err)
		}
	}
	compareCase(t, c, terrane, want, got)
}
