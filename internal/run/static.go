package run

import (
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/workdir"
)

// StaticInputs gives the early evaluation of module sources and versions
// (OpenTofu 1.8+) what it reads beyond the configuration: the root
// variables' values from the command line (vars), variable files, the
// environment and defaults, and the selected workspace. Values are
// gathered once, when a source or version first needs one.
func StaticInputs(dir string, vars []inputvars.VarOption, environ []string) config.StaticInputs {
	workspace, _ := workdir.CurrentWorkspace(dir)
	var (
		once       sync.Once
		given      *inputvars.Values
		givenDiags diags.Diagnostics
	)
	return config.StaticInputs{Workspace: workspace, RootVariable: func(decls map[string]*config.Variable, name string) (cty.Value, hcl.Diagnostics) {
		var reported diags.Diagnostics
		once.Do(func() {
			given, givenDiags = inputvars.CollectValues(dir, decls, vars, environ)
			for _, d := range givenDiags {
				if d.Severity == diags.Error {
					reported = append(reported, d)
				}
			}
		})
		var value *inputvars.Value
		if given != nil {
			value = given.ByName[name]
		}
		val, ds := inputvars.ResolveOne(decls[name], value)
		return val, append(reported, ds...).ToHCL()
	}}
}

// SavedPlanStaticInputs gives the early evaluation of module sources and
// versions the root variables' values a saved plan was made with, which
// applying it uses for everything else too.
func SavedPlanStaticInputs(dir string, plan *plans.Plan) config.StaticInputs {
	workspace, _ := workdir.CurrentWorkspace(dir)
	return config.StaticInputs{Workspace: workspace, RootVariable: func(decls map[string]*config.Variable, name string) (cty.Value, hcl.Diagnostics) {
		if _, ok := plan.VariableValues[name]; !ok {
			val, ds := inputvars.ResolveOne(decls[name], nil)
			return val, ds.ToHCL()
		}
		val, err := plan.VariableValue(name)
		if err != nil {
			return cty.DynamicVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid variable value in saved plan",
				Detail: fmt.Sprintf("The saved plan's value of var.%s cannot be read: %s. Make a new plan.", name, err)}}
		}
		return val, nil
	}}
}
