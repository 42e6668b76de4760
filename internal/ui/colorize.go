package ui

import (
	"regexp"
	"strings"
)

// colorTags are the style names OpenTofu's messages are written with, and
// their SGR codes.
var colorTags = map[string]string{
	"default": "39", "black": "30", "red": "31", "green": "32", "yellow": "33", "blue": "34",
	"magenta": "35", "cyan": "36", "light_gray": "37", "dark_gray": "90", "light_red": "91",
	"light_green": "92", "light_yellow": "93", "light_blue": "94", "light_magenta": "95",
	"light_cyan": "96", "white": "97", "bold": "1", "dim": "2", "underline": "4", "reset": "0",
	"reset_bold": "21",
}

var colorTagPattern = regexp.MustCompile(`(?i)\[[a-z0-9_-]+\]`)

// Colorize writes text marked up with [bold], [red], [reset] and the like
// as OpenTofu's colorize helper does: each known tag becomes its escape
// code (or nothing, without colour), unknown ones stay as they are, and a
// text that held a known tag ends with a reset.
func Colorize(text string, color bool) string {
	var b strings.Builder
	styled := false
	last := 0
	for _, m := range colorTagPattern.FindAllStringIndex(text, -1) {
		b.WriteString(text[last:m[0]])
		last = m[1]
		code, ok := colorTags[text[m[0]+1:m[1]-1]]
		if !ok {
			b.WriteString(text[m[0]:m[1]])
			continue
		}
		styled = true
		if color {
			b.WriteString("\x1b[" + code + "m")
		}
	}
	b.WriteString(text[last:])
	if styled && color {
		b.WriteString(ansiReset)
	}
	return b.String()
}
