package command

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/plugin/cliconfig"
)

// topLevelHelp is what `terrane -help` prints: the main commands in the
// order of the workflow, then the others by name, in OpenTofu's layout.
func topLevelHelp(table map[string]commandInfo) string {
	var others []string
	width := 0
	for name, info := range table {
		if strings.Contains(name, " ") || info.hidden {
			continue
		}
		width = max(width, len(name))
		if !slices.Contains(primaryCommands, name) {
			others = append(others, name)
		}
	}
	sort.Strings(others)
	list := func(names []string) string {
		var b strings.Builder
		for _, name := range names {
			fmt.Fprintf(&b, "  %-*s  %s\n", width, name, table[name].synopsis)
		}
		return b.String()
	}
	return `Usage: terrane [global options] <subcommand> [args]

The available commands for execution are listed below.
The primary workflow commands are given first, followed by
less common or more advanced commands.

Main commands:
` + list(primaryCommands) + `
All other commands:
` + list(others) + `
Global options (use these before the subcommand, if any):
  -chdir=DIR    Switch to a different working directory before executing the
                given subcommand.
  -help         Show this help output, or the help for a specified subcommand.
  -version      An alias for the "version" subcommand.`
}

// helpText is a command's help, before any list of its subcommands; ""
// for a command that prints its own.
func helpText(table map[string]commandInfo, name string) string {
	if alias := table[name].aliasOf; alias != "" {
		name = alias
	}
	for _, texts := range []map[string]string{helpTextsMain, helpTextsState, helpTextsWorkspace, helpTextsOther} {
		if text, ok := texts[name]; ok {
			if name == "login" || name == "logout" {
				text = strings.ReplaceAll(text, "CREDENTIALS_FILE", cliconfig.CredentialsFile(cliconfig.Environment{}))
			}
			return text
		}
	}
	return ""
}

// printCommandHelp writes a command's help as OpenTofu's runner does: the
// text, then the subcommands it groups with their synopses.
func printCommandHelp(w io.Writer, name string) {
	table := commands()
	text := helpText(table, name)
	if text == "" {
		return
	}
	prefix := name + " "
	var subs []string
	width := 0
	for sub, info := range table {
		rest, ok := strings.CutPrefix(sub, prefix)
		// An alias of a command of the same group is not listed, nor a
		// hidden command.
		if !ok || strings.Contains(rest, " ") || strings.HasPrefix(info.aliasOf, prefix) || (info.hidden && info.aliasOf == "") {
			continue
		}
		subs = append(subs, sub)
		width = max(width, len(sub))
	}
	sort.Strings(subs)
	var b strings.Builder
	b.WriteString(text)
	if len(subs) > 0 {
		b.WriteString("\n\nSubcommands:")
		for _, sub := range subs {
			short := sub[len(prefix):]
			fmt.Fprintf(&b, "\n    %s%s    %s", short, strings.Repeat(" ", width-len(sub)), table[sub].synopsis)
		}
	}
	fmt.Fprintln(w, b.String())
}
