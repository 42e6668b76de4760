// Command terrane is the Terrane command-line interface.
package main

import (
	"os"

	"github.com/terrane/terrane/internal/command"
	"github.com/terrane/terrane/internal/command/views"
)

func main() {
	stopProfiles := startProfiles(os.Stderr)
	stopGoverning := governMemory()
	code := command.Run(os.Args[1:], views.Streams{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stopGoverning()
	stopProfiles()
	os.Exit(code)
}
