package views

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/terrane/terrane/internal/ui"
)

// Confirm asks the user to type "yes", as Terraform's prompts do.
func Confirm(streams Streams, question, detail string) bool {
	return AskInput(streams, false, question, detail+"\nOnly 'yes' will be accepted to confirm.") == "yes"
}

// AskInput asks a question as OpenTofu's UIInput does: the query in bold,
// the description indented below it, then "Enter a value:"; it ends the
// line after the answer and returns the answer without trailing space.
func AskInput(streams Streams, color bool, query, description string) string {
	var b strings.Builder
	b.WriteString("[reset][bold]" + query + "[reset]\n")
	if description != "" {
		for _, line := range strings.Split(description, "\n") {
			b.WriteString("  " + line + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("  [bold]Enter a value:[reset] ")
	fmt.Fprint(streams.Stdout, ui.Colorize(b.String(), color))
	line := readLine(streams.Stdin)
	fmt.Fprintln(streams.Stdout)
	return strings.TrimRightFunc(line, unicode.IsSpace)
}

// readLine reads one line a byte at a time, so that a command asking more
// than one question never reads ahead into the next answer.
func readLine(r io.Reader) string {
	var line strings.Builder
	b := make([]byte, 1)
	for {
		n, err := r.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				return line.String()
			}
			line.WriteByte(b[0])
		}
		if err != nil {
			return line.String()
		}
	}
}
