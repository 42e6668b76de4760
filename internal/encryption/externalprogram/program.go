package externalprogram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Timeout bounds one run of a program, as OpenTofu bounds it.
const Timeout = time.Minute

// header is the first line a program writes.
type header struct {
	Magic   string `json:"magic"`
	Version int    `json:"version"`
}

// Run starts command, writes input (JSON-encoded) to its standard input
// and decodes what follows the header on its standard output into output,
// refusing fields output does not declare. magic is the header's expected
// magic string; the protocol version must be 1.
func Run(ctx context.Context, command []string, magic string, input, output any) error {
	if len(command) == 0 || command[0] == "" {
		return errors.New("the command is empty")
	}
	stdin, err := json.Marshal(input)
	if err != nil {
		return fmt.Errorf("encoding the program's input: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%s did not finish within %s%s", command[0], Timeout, stderrNote(&stderr))
	}
	if runErr != nil {
		return fmt.Errorf("%s failed: %v%s", command[0], runErr, stderrNote(&stderr))
	}
	line, rest, found := strings.Cut(stdout.String(), "\n")
	if !found {
		return fmt.Errorf("%s wrote no header line (a JSON object with \"magic\": %q and \"version\": 1, then a newline) before its output%s", command[0], magic, stderrNote(&stderr))
	}
	var head header
	// The header is read leniently: later protocol versions may add
	// fields to it.
	if err := json.Unmarshal([]byte(line), &head); err != nil {
		return fmt.Errorf("%s wrote a header that is not JSON (%v): %q", command[0], err, line)
	}
	if head.Magic != magic {
		return fmt.Errorf("%s wrote the header magic %q; a program for this protocol writes %q", command[0], head.Magic, magic)
	}
	if head.Version != 1 {
		return fmt.Errorf("%s speaks protocol version %d; only version 1 is supported", command[0], head.Version)
	}
	decoder := json.NewDecoder(strings.NewReader(rest))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(output); err != nil {
		return fmt.Errorf("%s wrote output that does not match the protocol: %v%s", command[0], err, stderrNote(&stderr))
	}
	return nil
}

func stderrNote(stderr *bytes.Buffer) string {
	text := strings.TrimSpace(stderr.String())
	if text == "" {
		return ""
	}
	return "; its standard error:\n" + text
}
