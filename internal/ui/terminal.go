package ui

import (
	"io"
	"os"

	"golang.org/x/term"
)

// Width is the number of columns human output to w is wrapped to: the
// terminal's width when w is a terminal, and otherwise the 78 columns
// OpenTofu uses for output that is not a terminal (a pipe, a file, a CI
// log), so that what scripts capture does not depend on who ran them.
func Width(w io.Writer) int {
	file, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(file.Fd())) {
		return defaultWidth
	}
	columns, _, err := term.GetSize(int(file.Fd()))
	if err != nil || columns <= 0 {
		return defaultWidth
	}
	return columns
}
