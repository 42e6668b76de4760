package views

import (
	"io"

	"github.com/terrane/terrane/internal/command/arguments"
)

// Streams are the standard streams a command reads and writes.
type Streams struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// View is the global view options the command line gave (the runner
	// takes them out of the command's arguments).
	View arguments.GlobalView
	// Name is the command's full name as the command line gave it: an
	// alias's own name ("env list"), not the command it runs.
	Name string
}
