package clitest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// WriteFile writes content to path, creating its directory.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// AssertContains fails unless text holds every wanted fragment, wherever
// diagnostics wrapped it.
func AssertContains(t testing.TB, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(Unwrapped(text), Unwrapped(want)) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

// ansiCodes and ruleOrSpace help Unwrapped see through diagnostics'
// colour codes, left rules and line wrapping.
var (
	ansiCodes   = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	ruleOrSpace = regexp.MustCompile(`[\s│╷╵]+`)
)

// Unwrapped is text as one line: colour codes gone, rules and every run
// of whitespace (wrapped lines included) one space, so that a test can
// look for a sentence wherever the width wrapped it.
func Unwrapped(text string) string {
	return strings.TrimSpace(ruleOrSpace.ReplaceAllString(ansiCodes.ReplaceAllString(text, ""), " "))
}
