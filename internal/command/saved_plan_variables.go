package command

import (
	"fmt"
	"slices"
	"sort"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/inputvars"
	"github.com/terrane/terrane/internal/plans"
)

// savedPlanValues are the variable values applying a saved plan uses: the
// ones recorded in the plan, and the ephemeral ones, which a plan never
// records and which must be given again (-var, -var-file, files or the
// environment). A -var or -var-file value for a recorded variable must be
// the one the plan was made with: the plan's decisions rest on it.
func savedPlanValues(cfg *config.Config, saved *plans.Plan, given *inputvars.Values, ds diags.Diagnostics) (engine.InputValues, diags.Diagnostics) {
	values := engine.InputValues{}
	for name := range saved.VariableValues {
		val, err := saved.VariableValue(name)
		if err != nil {
			ds = ds.Append(diags.Errorf("Invalid variable value in saved plan", "The saved plan's value of var.%s cannot be read: %s. Make a new plan.", name, err))
			continue
		}
		values[name] = &engine.InputValue{Value: val, SourceType: engine.ValueFromPlan}
	}
	for _, name := range sortedKeys(cfg.Module.Variables) {
		decl := cfg.Module.Variables[name]
		value := given.ByName[name]
		switch {
		case decl.Ephemeral && value != nil:
			values[name] = value.Engine()
		case decl.Ephemeral && slices.Contains(saved.ApplyTimeVariables, name):
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "No value for required variable",
				Detail:  fmt.Sprintf("Variable %q is configured as ephemeral. This type of variables need to be given a value during `terrane plan` and also during `terrane apply`.", name),
				Subject: decl.DeclRange.Ptr()})
		case !decl.Ephemeral && value != nil && (value.Source == inputvars.SourceCLI || value.Source == inputvars.SourceNamedFile):
			ds = ds.Append(changedSavedVariable(decl.Name, values[name], value))
		}
	}
	return values, ds
}

// changedSavedVariable refuses a -var or -var-file value for a variable
// the saved plan recorded, unless it is the value recorded, in OpenTofu's
// words.
func changedSavedVariable(name string, planned *engine.InputValue, given *inputvars.Value) diags.Diagnostics {
	plannedVal := cty.NullVal(cty.DynamicPseudoType)
	if planned != nil {
		plannedVal = planned.Value
	}
	if resolved, err := convert.Convert(given.Value, plannedVal.Type()); err == nil && resolved.RawEquals(plannedVal) {
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Mismatch between input and plan variable value",
		"Value saved in the plan file for variable %q is different from the one given to the current command.", name)}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
