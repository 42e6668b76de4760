package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/txtar"
)

// A caseFile is one case of the corpus: a script and the files of the
// working directory both programs start from.
type caseFile struct {
	name  string // cases/ relative path without ".txt", e.g. "targeting/destroy_target_chain"
	steps []step
	files []txtar.File
	keeps []keep
	// source is the file as written, which a recording of the oracle's
	// run is keyed by.
	source []byte
}

// A step is one line of a script.
type step struct {
	line int
	verb string // tf, stdin, stdinfile, env, cp, rm, mkdir, keep
	args []string
}

// A keep is a difference kept on purpose: a step's stream (stdout,
// stderr or code) may differ from OpenTofu's for the reason given. Every
// keep must be listed, with its reason, in the README.
type keep struct {
	line   int
	step   int // 1-based index of the tf step it applies to
	stream string
	reason string
}

// verbs lists what a script may say, with the number of arguments each
// takes (-1: any, at least one; anyArgs: any, none too).
var verbs = map[string]int{
	"tf":        anyArgs, // run both programs with these arguments (none: the bare command)
	"stdin":     -1,      // the standard input of the next tf step (\n for a newline)
	"stdinfile": 1,       // a file of the working directory as the standard input of the next tf step
	"env":       -1,      // NAME=VALUE for every later step
	"cp":        2,       // copy a file of the working directory
	"rm":        -1,      // remove files or directories of the working directory
	"mkdir":     1,       // make a directory in the working directory
	"keep":      -1,      // keep STEP STREAM REASON...: a difference kept on purpose
}

// anyArgs is the argument count of a verb that takes any number of
// arguments, none included.
const anyArgs = -2

// loadCase reads a case file.
func loadCase(root, path string) (*caseFile, error) {
	source, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	archive := txtar.Parse(source)
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return nil, err
	}
	c := &caseFile{name: strings.TrimSuffix(filepath.ToSlash(rel), ".txt"), files: archive.Files, source: source}
	tfSteps := 0
	for i, raw := range strings.Split(string(archive.Comment), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words, err := splitWords(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		want, ok := verbs[words[0]]
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown verb %q", path, i+1, words[0])
		}
		args := words[1:]
		if (want == -1 && len(args) == 0) || (want >= 0 && len(args) != want) {
			return nil, fmt.Errorf("%s:%d: %s takes %s", path, i+1, words[0], argCount(want))
		}
		if words[0] == "keep" {
			k, err := parseKeep(args, tfSteps)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
			}
			k.line = i + 1
			c.keeps = append(c.keeps, k)
			continue
		}
		if words[0] == "tf" {
			tfSteps++
		}
		c.steps = append(c.steps, step{line: i + 1, verb: words[0], args: args})
	}
	if tfSteps == 0 {
		return nil, fmt.Errorf("%s: the script runs no tf step", path)
	}
	for _, f := range c.files {
		if filepath.IsAbs(f.Name) || strings.HasPrefix(filepath.Clean(f.Name), "..") {
			return nil, fmt.Errorf("%s: file %q is outside the working directory", path, f.Name)
		}
	}
	return c, nil
}

// parseKeep reads "keep STREAM REASON..." that follows the tf step it
// applies to.
func parseKeep(args []string, tfSteps int) (keep, error) {
	if tfSteps == 0 {
		return keep{}, fmt.Errorf("keep must follow the tf step it applies to")
	}
	if len(args) < 2 {
		return keep{}, fmt.Errorf("keep takes a stream (stdout, stderr, code) and a reason")
	}
	switch args[0] {
	case "stdout", "stderr", "code":
	default:
		return keep{}, fmt.Errorf("keep: unknown stream %q (stdout, stderr, code)", args[0])
	}
	return keep{step: tfSteps, stream: args[0], reason: strings.Join(args[1:], " ")}, nil
}

func argCount(n int) string {
	if n < 0 {
		return "at least one argument"
	}
	return fmt.Sprintf("%d arguments", n)
}

// splitWords splits a script line into words as a shell would for simple
// quoting: single quotes keep everything, double quotes allow \" and \\.
func splitWords(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			word.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) {
					i++
				}
				word.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, fmt.Errorf("unterminated double quote")
			}
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// writeFiles writes a case's files into dir.
func (c *caseFile) writeFiles(dir string) error {
	for _, f := range c.files {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
