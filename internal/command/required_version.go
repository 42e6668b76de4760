package command

import (
	"os"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/run"
	"github.com/terrane/terrane/internal/ui"
)

// checkRequiredVersion loads the whole configuration in the working
// directory, as OpenTofu's state commands that write or export state do
// before anything else (Meta.checkRequiredVersion): they stop on any error
// in it, version constraints included. As in OpenTofu, the directory is
// read by its absolute path, so the files are named by theirs. It returns
// the files read, for the diagnostics' snippets. vars are the -var and
// -var-file options, for module sources built from variables.
func checkRequiredVersion(vars []inputvars.VarOption) (diags.Diagnostics, ui.Sources) {
	dir, err := os.Getwd()
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read the working directory", "%s.", err)}, nil
	}
	parser := config.NewParser()
	parser.Static = run.StaticInputs(dir, vars, os.Environ())
	_, hclDiags := modules.LoadConfig(parser, dir)
	ds := diags.Diagnostics{}.Append(hclDiags)
	if !ds.HasErrors() {
		return nil, nil
	}
	return ds, ui.Sources(parser.Files())
}
