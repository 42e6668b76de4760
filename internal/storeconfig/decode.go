package storeconfig

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
)

// EnvPrefix starts the environment variables that set the backend's
// arguments: TERRANE_BACKEND_ADDRESS sets address, and so on.
const EnvPrefix = "TERRANE_BACKEND_"

// EnvName is the environment variable of one argument.
func EnvName(argument string) string { return EnvPrefix + strings.ToUpper(argument) }

func bodySchema() *hcl.BodySchema {
	schema := &hcl.BodySchema{}
	for _, attr := range attributes {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: attr.name})
	}
	return schema
}

// DecodeBlock reads the root module's backend block. A block of another
// type than "terrane" names no Terrane store: it gives nothing (see
// package statefile's moving-in support for "local" and "http").
func DecodeBlock(block *config.Backend) (*Settings, diags.Diagnostics) {
	if block == nil || block.Type != BackendType {
		return nil, nil
	}
	var ds diags.Diagnostics
	content, hclDiags := block.Config.Content(bodySchema())
	ds = ds.Append(hclDiags)
	settings := &Settings{}
	for _, attr := range attributes {
		expr, ok := content.Attributes[attr.name]
		if !ok {
			continue
		}
		ds = ds.Append(decodeExpression(settings, attr, expr.Expr))
	}
	if !ds.HasErrors() {
		if err := settings.Validate(); err != nil {
			d := diags.Errorf("Invalid backend configuration", "The backend \"terrane\" block: %s.", err)
			d.Subject = block.DeclRange.Ptr()
			ds = ds.Append(d)
		}
	}
	return settings, ds
}

// decodeExpression evaluates one argument, which must be a constant: a
// backend is chosen before anything else in the configuration is known.
func decodeExpression(settings *Settings, attr attribute, expr hcl.Expression) diags.Diagnostics {
	val, hclDiags := expr.Value(nil)
	if hclDiags.HasErrors() {
		return diags.Diagnostics{}.Append(hclDiags)
	}
	want := cty.String
	if attr.list {
		want = cty.List(cty.String)
	}
	converted, err := convert.Convert(val, want)
	if err != nil || converted.IsNull() || !converted.IsWhollyKnown() {
		kind := "a string"
		if attr.list {
			kind = "a list of strings, such as [\"https://etcd-1:2379\", \"https://etcd-2:2379\"]"
		}
		d := diags.Errorf("Invalid backend configuration", "The argument %q must be %s.", attr.name, kind)
		d.Subject = expr.Range().Ptr()
		return diags.Diagnostics{d}
	}
	if attr.list {
		var list []string
		for _, elem := range converted.AsValueSlice() {
			list = append(list, elem.AsString())
		}
		settings.set(attr, "", list)
		return nil
	}
	settings.set(attr, converted.AsString(), nil)
	return nil
}

// keyValuePattern recognises -backend-config=KEY=VALUE; anything else is
// the path of a file of arguments, as OpenTofu reads the option.
var keyValuePattern = regexp.MustCompile(`^([a-zA-Z_][a-zA-Z0-9_]*)=(.*)$`)

// DecodeOverrides reads init's -backend-config arguments, in order, each
// either KEY=VALUE or a file of arguments in the backend block's syntax.
// Later ones override earlier ones.
func DecodeOverrides(items []string) (Settings, diags.Diagnostics) {
	var ds diags.Diagnostics
	var settings Settings
	for _, item := range items {
		if match := keyValuePattern.FindStringSubmatch(item); match != nil {
			ds = ds.Append(decodeKeyValue(&settings, match[1], match[2]))
			continue
		}
		ds = ds.Append(decodeOverrideFile(&settings, item))
	}
	return settings, ds
}

func decodeKeyValue(settings *Settings, name, value string) diags.Diagnostics {
	attr, ok := attributeNamed(name)
	if !ok {
		return diags.Diagnostics{unknownArgument(name, "-backend-config="+name+"=…")}
	}
	if !attr.list {
		settings.set(attr, value, nil)
		return nil
	}
	// A list is written as HCL (["a", "b"]) or, for convenience in
	// scripts, as comma-separated values.
	if strings.HasPrefix(strings.TrimSpace(value), "[") {
		expr, hclDiags := hclsyntax.ParseExpression([]byte(value), "-backend-config", hcl.InitialPos)
		if hclDiags.HasErrors() {
			return diags.Diagnostics{}.Append(hclDiags)
		}
		return decodeExpression(settings, attr, expr)
	}
	settings.set(attr, "", splitList(value))
	return nil
}

func decodeOverrideFile(settings *Settings, path string) diags.Diagnostics {
	src, err := os.ReadFile(path)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Invalid -backend-config option",
			"%s. Give -backend-config=KEY=VALUE, or the path of a file of backend arguments.", err)}
	}
	parser := hclparse.NewParser()
	var file *hcl.File
	var hclDiags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		file, hclDiags = parser.ParseJSON(src, path)
	} else {
		file, hclDiags = parser.ParseHCL(src, path)
	}
	ds := diags.Diagnostics{}.Append(hclDiags)
	if hclDiags.HasErrors() {
		return ds
	}
	content, hclDiags := file.Body.Content(bodySchema())
	ds = ds.Append(hclDiags)
	for _, attr := range attributes {
		if expr, ok := content.Attributes[attr.name]; ok {
			ds = ds.Append(decodeExpression(settings, attr, expr.Expr))
		}
	}
	return ds
}

func unknownArgument(name, where string) diags.Diagnostic {
	known := make([]string, len(attributes))
	for i, attr := range attributes {
		known[i] = attr.name
	}
	return diags.Errorf("Unsupported backend argument",
		"%s: the \"terrane\" backend has no argument %q. Its arguments are %s.", where, name, strings.Join(known, ", "))
}

func splitList(value string) []string {
	var list []string
	for _, item := range strings.Split(value, ",") {
		if item = strings.TrimSpace(item); item != "" {
			list = append(list, item)
		}
	}
	return list
}

// FromEnvironment reads the TERRANE_BACKEND_* variables of environ (as
// os.Environ gives it). A variable Terrane does not know is an error, so a
// misspelt one is not silently ignored.
func FromEnvironment(environ []string) (Settings, diags.Diagnostics) {
	var settings Settings
	var ds diags.Diagnostics
	for _, entry := range environ {
		name, value, _ := strings.Cut(entry, "=")
		argument, ok := strings.CutPrefix(name, EnvPrefix)
		if !ok || value == "" {
			continue
		}
		attr, known := attributeNamed(strings.ToLower(argument))
		if !known || EnvName(attr.name) != name {
			ds = ds.Append(unknownArgument(strings.ToLower(argument), "The environment variable "+name))
			continue
		}
		settings.set(attr, value, splitList(value))
	}
	return settings, ds
}

// namedBy says which variables name a store, as the subject of a
// sentence: "TERRANE_BACKEND_ADDRESS names" or "…_ENDPOINTS, …_PREFIX name".
func namedBy(fromEnv Settings) string {
	var names []string
	for _, attr := range attributes {
		if fromEnv.isSet(attr) && attr.identity {
			names = append(names, EnvName(attr.name))
		}
	}
	if len(names) == 1 {
		return names[0] + " names"
	}
	return strings.Join(names, ", ") + " name"
}

// Arguments are the names of the backend's arguments.
func Arguments() []string {
	names := make([]string, len(attributes))
	for i, attr := range attributes {
		names[i] = attr.name
	}
	return names
}

// FromValues reads backend arguments given as values, as
// terraform_remote_state's config gives them. Names that are not
// arguments are left to the caller.
func FromValues(values map[string]cty.Value) (Settings, error) {
	var settings Settings
	for _, attr := range attributes {
		val, ok := values[attr.name]
		if !ok || val.IsNull() {
			continue
		}
		want := cty.String
		if attr.list {
			want = cty.List(cty.String)
		}
		converted, err := convert.Convert(val, want)
		if err != nil || !converted.IsWhollyKnown() {
			if attr.list {
				return Settings{}, fmt.Errorf("%s must be a list of strings", attr.name)
			}
			return Settings{}, fmt.Errorf("%s must be a string", attr.name)
		}
		if attr.list {
			var list []string
			for _, elem := range converted.AsValueSlice() {
				list = append(list, elem.AsString())
			}
			settings.set(attr, "", list)
		} else {
			settings.set(attr, converted.AsString(), nil)
		}
	}
	return settings, settings.Validate()
}
