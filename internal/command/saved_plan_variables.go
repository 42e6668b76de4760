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
				Detail:  fmt.Sprintf("The ephemeral input variable %q was set during the plan phase, and so must also be set during the apply phase. Give it again with -var, -var-file or TF_VAR_%s.", name, name),
				Subject: decl.DeclRange.Ptr()})
		case !decl.Ephemeral && value != nil && (value.Source == inputvars.SourceCLI || value.Source == inputvars.SourceNamedFile):
			ds = ds.Append(changedSavedVariable(decl.Name, values[name], value))
		}
	}
	return values, ds
}

// changedSavedVariable refuses a -var or -var-file value for a variable
// the saved plan recorded, unless it is the value recorded.
func changedSavedVariable(name string, planned *engine.InputValue, given *inputvars.Value) diags.Diagnostics {
	plannedVal := cty.NullVal(cty.DynamicPseudoType)
	if planned != nil {
		plannedVal = planned.Value
	}
	if resolved, err := convert.Convert(given.Value, plannedVal.Type()); err == nil && resolved.RawEquals(plannedVal) {
		return nil
	}
	d := diags.Diagnostic{Severity: diags.Error, Summary: "Can't change variable when applying a saved plan",
		Detail: fmt.Sprintf("The variable %s cannot be set using the -var and -var-file options when applying a saved plan file, because a saved plan includes the variable values that were set when it was created. "+
			"The value given by the %s differs from the one the plan was made with. Make a new plan with the new value, or declare the variable with ephemeral = true to give it anew on every run.", name, given.Source)}
	if given.Range.Filename != "" {
		d.Subject = given.Range.Ptr()
	}
	return diags.Diagnostics{d}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
