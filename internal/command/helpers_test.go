package command

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// writeFile writes content to path, creating its directory.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ansiCodes and ruleOrSpace help unwrapped see through diagnostics'
// colour codes, left rules and line wrapping.
var (
	ansiCodes   = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	ruleOrSpace = regexp.MustCompile(`[\s│╷╵]+`)
)

// unwrapped is text as one line: colour codes gone, rules and every run
// of whitespace (wrapped lines included) one space, so that a test can
// look for a sentence wherever the width wrapped it.
func unwrapped(text string) string {
	return strings.TrimSpace(ruleOrSpace.ReplaceAllString(ansiCodes.ReplaceAllString(text, ""), " "))
}
