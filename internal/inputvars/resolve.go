package inputvars

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// Resolve returns every declared variable's final value: the given value
// or the declaration's default, with optional-attribute defaults applied
// and converted to the declared type. Values are returned unmarked; callers
// mark sensitive variables where they evaluate them. A required variable
// without a value and a value of the wrong type are errors that name where
// the value came from.
func Resolve(decls map[string]*config.Variable, given *Values) (map[string]cty.Value, diags.Diagnostics) {
	var ds diags.Diagnostics
	out := make(map[string]cty.Value, len(decls))
	for name, decl := range decls {
		var value *Value
		if given != nil {
			value = given.ByName[name]
		}
		val, valDiags := ResolveOne(decl, value)
		ds = ds.Append(valDiags)
		out[name] = val
	}
	return out, ds
}

// CheckRequired reports the declared variables that have neither a value
// nor a default, as OpenTofu checks before a run. Whether a value suits
// its variable is for the run to find, after the configuration is
// validated, as OpenTofu finds it.
func CheckRequired(decls map[string]*config.Variable, given *Values) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, name := range sortedNames(decls) {
		decl := decls[name]
		var value *Value
		if given != nil {
			value = given.ByName[name]
		}
		if (value == nil || value.Value == cty.NilVal) && decl.Default == nil {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "No value for required variable",
				Detail:  fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", decl.Name),
				Subject: decl.DeclRange.Ptr()})
		}
	}
	return ds
}

func sortedNames(decls map[string]*config.Variable) []string {
	names := make([]string, 0, len(decls))
	for name := range decls {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// ResolveOne is Resolve for one declaration; given may be nil.
func ResolveOne(decl *config.Variable, given *Value) (cty.Value, diags.Diagnostics) {
	val := cty.NilVal
	if given != nil {
		val = given.Value
	}
	if val == cty.NilVal || (val.IsNull() && !decl.Nullable) {
		if decl.Default == nil {
			return cty.DynamicVal, diags.Diagnostics{{Severity: diags.Error, Summary: "No value for required variable",
				Detail:  fmt.Sprintf("The root module input variable %q is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.", decl.Name),
				Subject: decl.DeclRange.Ptr()}}
		}
		def, defDiags := decl.Default.Value(nil)
		if defDiags.HasErrors() {
			return cty.DynamicVal, diags.Diagnostics{}.Append(defDiags)
		}
		val, given = def, nil
	}
	if decl.Type.Defaults != nil {
		val = decl.Type.Defaults.Apply(val)
	}
	converted, err := convert.Convert(val, decl.Type.Type)
	if err != nil {
		return cty.DynamicVal, diags.Diagnostics{invalidValueDiag(decl, given, err)}
	}
	return converted, nil
}

func invalidValueDiag(decl *config.Variable, given *Value, err error) diags.Diagnostic {
	declared := fmt.Sprintf("%s:%d,%d", decl.DeclRange.Filename, decl.DeclRange.Start.Line, decl.DeclRange.Start.Column)
	d := diags.Diagnostic{Severity: diags.Error, Summary: "Invalid value for input variable"}
	if given == nil {
		d.Detail = fmt.Sprintf("The default value of var.%s, declared at %s, is not suitable: %s.", decl.Name, declared, err)
		d.Subject = decl.DeclRange.Ptr()
		return d
	}
	d.Detail = fmt.Sprintf("The value given for var.%s by the %s is not suitable for the variable declared at %s: %s.", decl.Name, given.Source, declared, err)
	if given.Range != (hcl.Range{}) {
		d.Subject = given.Range.Ptr()
	}
	return d
}
