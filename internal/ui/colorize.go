package ui

import (
	"regexp"
	"strings"
)

// This file colours text written with OpenTofu's colour markup
// ("[bold][red]Error:[reset]"), byte for byte as OpenTofu's colouring
// does: each known name becomes its escape code, and text that named any
// colour ends with a reset. Unknown names are left as they are.

var colorMarkup = regexp.MustCompile(`(?i)\[[a-z0-9_-]+\]`)

var colorCodes = map[string]string{
	"reset":     "0",
	"bold":      "1",
	"dim":       "2",
	"underline": "4",
	"red":       "31",
	"green":     "32",
	"yellow":    "33",
	"blue":      "34",
	"magenta":   "35",
	"cyan":      "36",
	"dark_gray": "90",
	"purple":    "38;5;57",
}

// colorize replaces colour markup with escape codes.
func colorize(s string) string { return applyColorMarkup(s, true) }

// stripColors removes colour markup, as OpenTofu's colouring does when
// colour is off.
func stripColors(s string) string { return applyColorMarkup(s, false) }

func applyColorMarkup(s string, enabled bool) string {
	matches := colorMarkup.FindAllStringIndex(s, -1)
	if len(matches) == 0 {
		return s
	}
	var out strings.Builder
	colored, last := false, 0
	for _, m := range matches {
		out.WriteString(s[last:m[0]])
		last = m[1]
		code, known := colorCodes[s[m[0]+1:m[1]-1]]
		if !known {
			out.WriteString(s[m[0]:m[1]])
			continue
		}
		colored = true
		if enabled {
			out.WriteString("\x1b[" + code + "m")
		}
	}
	out.WriteString(s[last:])
	if colored && enabled {
		out.WriteString("\x1b[0m")
	}
	return out.String()
}

// replaceControlChars shows control characters other than tabs and line
// breaks as their Unicode pictures (␛ for escape), so that text from a
// configuration cannot drive the terminal.
func replaceControlChars(s string) string {
	if !strings.ContainsFunc(s, isControlChar) {
		return s
	}
	var out strings.Builder
	for _, r := range s {
		switch {
		case r == 0x7f:
			out.WriteRune(0x2421)
		case isControlChar(r):
			out.WriteRune(r + 0x2400)
		default:
			out.WriteRune(r)
		}
	}
	return out.String()
}

func isControlChar(r rune) bool {
	return (r < ' ' && r != '\r' && r != '\n' && r != '\t') || r == 0x7f
}

// Colorize writes text marked up with [bold], [red], [reset] and the like
// as OpenTofu's colouring does, with escape codes or, without colour, with
// the markup removed.
func Colorize(text string, color bool) string { return applyColorMarkup(text, color) }
