package command

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// promptForVariables asks, in name order, for the value of each root
// module variable that is required and was given no value, as OpenTofu
// does when input is enabled. Prompting is best effort: an answer that
// cannot be read (no more input) leaves the variable unset, for the run
// to report as missing.
func (o *operationOutput) promptForVariables(decls map[string]*config.Variable, given *inputvars.Values) diags.Diagnostics {
	var needed []string
	for name, decl := range decls {
		if decl.Default == nil && given.ByName[name] == nil && !given.Unreadable[name] {
			needed = append(needed, name)
		}
	}
	sort.Strings(needed)
	var ds diags.Diagnostics
	for _, name := range needed {
		answer, ok := o.askVariable(decls[name])
		if !ok {
			continue
		}
		val, file, parseDiags := inputvars.ParseInteractive(decls[name], answer)
		ds = ds.Append(parseDiags)
		if file != nil {
			given.Files[val.Range.Filename] = file
		}
		if !parseDiags.HasErrors() && val.Value != cty.NilVal {
			given.ByName[name] = val
		}
	}
	return ds
}

// askVariable writes the prompt for one variable as OpenTofu's UI input
// does — its name, its description (and deprecation) indented, then
// "Enter a value:" — and reads one line. ok is false when no line could
// be read.
func (o *operationOutput) askVariable(decl *config.Variable) (answer string, ok bool) {
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

// inputAllowedByEnv is false when TF_INPUT says not to ask for input
// ("0", "false"), as -input=false does.
func inputAllowedByEnv() bool {
	allowed, err := strconv.ParseBool(os.Getenv("TF_INPUT"))
	return err != nil || allowed
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
