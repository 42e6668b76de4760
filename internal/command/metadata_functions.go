package command

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang/funcs"
	"github.com/terrane/terrane/internal/ui"
)

// runMetadataFunctions is `terrane metadata functions -json`: the
// signatures of the built-in functions, in the document `tofu metadata
// functions -json` writes (format 1.0, internal/command/jsonfunction).
// Descriptions are those the function library carries, where it carries
// one.
func runMetadataFunctions(streams views.Streams, args []string) int {
	fs := newFlagSet("metadata functions", streams)
	asJSON := fs.Bool("json", false, "Print the function signatures as JSON (required)")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		ui.WriteDiagnostics(streams.Stderr, diags.Diagnostics{diags.Errorf("Failed to parse command-line flags", "%s", err)}, nil, ui.ColorEnabled(*noColor))
		return runResultHelp
	}
	if !*asJSON {
		ui.WriteDiagnostics(streams.Stderr, diags.Diagnostics{diags.Errorf("Invalid arguments",
			"The `terrane metadata functions` command requires the `-json` flag.")}, nil, ui.ColorEnabled(*noColor))
		return runResultHelp
	}
	out, d := marshalFunctionSignatures(funcs.Table(funcs.Options{}))
	if d != nil {
		writeLegacyDiagnostics(streams.Stderr, diags.Diagnostics{*d}, false)
		return 1
	}
	fmt.Fprintln(streams.Stdout, string(out))
	return 0
}

// functionSignature is one function in the document.
type functionSignature struct {
	Description       string                `json:"description,omitempty"`
	ReturnType        cty.Type              `json:"return_type"`
	Parameters        []*signatureParameter `json:"parameters,omitempty"`
	VariadicParameter *signatureParameter   `json:"variadic_parameter,omitempty"`
}

type signatureParameter struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	IsNullable  bool     `json:"is_nullable,omitempty"`
	Type        cty.Type `json:"type"`
}

// ignoredFunctions are left out of the document, as OpenTofu leaves them
// out, under their core:: names too: they exist only to say they were
// removed.
var ignoredFunctions = map[string]bool{"map": true, "list": true}

// describedFunction reports whether name belongs in the document: the
// language's own functions, not the built-in provider's provider::
// functions, which OpenTofu describes with the providers'.
func describedFunction(name string) bool {
	if strings.HasPrefix(name, "provider::") {
		return false
	}
	return !ignoredFunctions[strings.TrimPrefix(name, funcs.CoreNamespace)]
}

func marshalFunctionSignatures(table map[string]function.Function) ([]byte, *diags.Diagnostic) {
	signatures := make(map[string]*functionSignature, len(table))
	for name, f := range table {
		if !describedFunction(name) {
			continue
		}
		signature, err := functionSignatureOf(name, f)
		if err != nil {
			d := diags.Errorf("Cannot describe a function", "The signature of %s cannot be worked out: %s.", name, err)
			return nil, &d
		}
		signatures[name] = signature
	}
	out, err := json.Marshal(struct {
		FormatVersion string                        `json:"format_version"`
		Signatures    map[string]*functionSignature `json:"function_signatures,omitempty"`
	}{"1.0", signatures})
	if err != nil {
		d := diags.Errorf("Cannot describe the functions", "%s.", err)
		return nil, &d
	}
	return out, nil
}

// functionSignatureOf describes f. Its return type is what it returns for
// arguments of its parameters' own types; can and try, whose parameters
// take any expression, are described as OpenTofu describes them.
func functionSignatureOf(name string, f function.Function) (*functionSignature, error) {
	out := &functionSignature{Description: f.Description()}
	for _, p := range f.Params() {
		out.Parameters = append(out.Parameters, parameterOf(p))
	}
	if vp := f.VarParam(); vp != nil {
		out.VariadicParameter = parameterOf(*vp)
	}
	describe(out, strings.TrimPrefix(name, funcs.CoreNamespace))
	switch name {
	case "can", funcs.CoreNamespace + "can":
		out.ReturnType = cty.Bool
		out.Parameters[0].Type = cty.DynamicPseudoType
		return out, nil
	case "try", funcs.CoreNamespace + "try":
		out.ReturnType = cty.DynamicPseudoType
		out.VariadicParameter.Type = cty.DynamicPseudoType
		return out, nil
	}
	args := make([]cty.Type, 0, len(f.Params())+1)
	for _, p := range f.Params() {
		args = append(args, p.Type)
	}
	if vp := f.VarParam(); vp != nil {
		args = append(args, vp.Type)
	}
	ret, err := f.ReturnType(args)
	if err != nil {
		return nil, err
	}
	out.ReturnType = ret
	return out, nil
}

func parameterOf(p function.Parameter) *signatureParameter {
	return &signatureParameter{Name: p.Name, Description: p.Description, IsNullable: p.AllowNull, Type: p.Type}
}

// functionDescriptionsJSON holds the descriptions OpenTofu gives each
// function and its parameters in this document, in place of those the
// function library carries: name -> {description, params}, the params in
// order, the variadic one last.
//
//go:embed function_descriptions.json
var functionDescriptionsJSON []byte

type functionDescription struct {
	Description string   `json:"description"`
	Params      []string `json:"params"`
}

var functionDescriptions = func() map[string]functionDescription {
	var out map[string]functionDescription
	if err := json.Unmarshal(functionDescriptionsJSON, &out); err != nil {
		panic(fmt.Sprintf("function_descriptions.json: %s", err))
	}
	return out
}()

// describe replaces sig's descriptions with the ones OpenTofu gives the
// function, when it gives any; a function it does not list keeps the
// library's.
func describe(sig *functionSignature, name string) {
	desc, ok := functionDescriptions[name]
	if !ok {
		return
	}
	sig.Description = desc.Description
	for i, p := range sig.Parameters {
		if i < len(desc.Params) {
			p.Description = desc.Params[i]
		}
	}
	if sig.VariadicParameter != nil && len(desc.Params) > len(sig.Parameters) {
		sig.VariadicParameter.Description = desc.Params[len(sig.Parameters)]
	}
}
