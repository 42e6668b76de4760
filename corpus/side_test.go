package corpus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// This file is how a case runs on one side. A recording of the oracle's
// run is valid only for the code that made it, so this file (and
// script_test.go, which reads the cases) is part of every recording's
// fingerprint: change it and every case runs the oracle again.

// stepTimeout bounds one command of one program.
const stepTimeout = 2 * time.Minute

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
