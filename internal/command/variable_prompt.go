package command

import (
	"os"
	"sort"
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
)

// promptForVariables asks, in name order, for the value of each root
// module variable that is required and was given no value, as OpenTofu
// does when input is enabled. Prompting is best effort: an answer that
// cannot be read (no more input) leaves the variable unset, for the run
// to report as missing.
func promptForVariables(out *views.Operation, decls map[string]*config.Variable, given *inputvars.Values) diags.Diagnostics {
	var needed []string
	for name, decl := range decls {
		if decl.Default == nil && given.ByName[name] == nil && !given.Unreadable[name] {
			needed = append(needed, name)
		}
	}
	sort.Strings(needed)
	var ds diags.Diagnostics
	for _, name := range needed {
		answer, ok := out.AskVariable(decls[name])
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

// inputAllowedByEnv is false when TF_INPUT says not to ask for input
// ("0", "false"), as -input=false does.
func inputAllowedByEnv() bool {
	allowed, err := strconv.ParseBool(os.Getenv("TF_INPUT"))
	return err != nil || allowed
}
