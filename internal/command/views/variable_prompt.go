package views

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/config"
)

// AskVariable writes the prompt for one variable as OpenTofu's UI input
// does — its name, its description (and deprecation) indented, then
// "Enter a value:" — and reads one line. ok is false when no line could
// be read.
func (o *Operation) AskVariable(decl *config.Variable) (answer string, ok bool) {
	var b strings.Builder
	query := "var." + decl.Name
	if decl.Ephemeral {
		query += " (ephemeral)"
	}
	b.WriteString(o.bold(query) + "\n")
	if description := inputPrompt(decl); description != "" {
		for _, line := range strings.Split(description, "\n") {
			b.WriteString("  " + line + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("  " + o.bold("Enter a value:") + " ")
	fmt.Fprint(o.streams.Stdout, b.String())
	// Each prompt reads through a buffer of its own, as OpenTofu's does:
	// what that buffer read beyond the first line is lost, so piped input
	// answers only the first prompt.
	line, err := bufio.NewReader(o.streams.Stdin).ReadString('\n')
	if err != nil {
		return "", false
	}
	fmt.Fprintln(o.streams.Stdout)
	return strings.TrimRight(line, " \t\r\n"), true
}

// inputPrompt is the text shown under a variable's name when asking for
// its value.
func inputPrompt(decl *config.Variable) string {
	switch {
	case decl.Description != "" && decl.DeprecatedMessage != "":
		return fmt.Sprintf("%s.\nVariable is marked as deprecated with the following message: %s", decl.Description, decl.DeprecatedMessage)
	case decl.DeprecatedMessage != "":
		return "Variable is marked as deprecated with the following message: " + decl.DeprecatedMessage
	}
	return decl.Description
}
