package ui

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
)

func TestWriteDiagnosticWithSnippet(t *testing.T) {
	src := "resource \"null_resource\" \"x\" {\n  foo = 1\n}\n"
	parser := hclparse.NewParser()
	if _, hd := parser.ParseHCL([]byte(src), "main.tf"); hd.HasErrors() {
		t.Fatal(hd)
	}
	subject := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 3, Byte: 33}, End: hcl.Pos{Line: 2, Column: 6, Byte: 36}}
	d := diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Unsupported argument",
		Detail:   `An argument named "foo" is not expected here.`,
		Subject:  &subject,
	}
	sources := SourcesFromParser(parser)
	// OpenTofu's format.DiagnosticPlain, written for -no-color: no frame,
	// a blank line first, line numbers right-aligned in four columns.
	plain := "\n" +
		"Error: Unsupported argument\n" +
		"\n" +
		"  on main.tf line 2, in resource \"null_resource\" \"x\":\n" +
		"   2:   foo = 1\n" +
		"\n" +
		"An argument named \"foo\" is not expected here.\n"
	var out strings.Builder
	WriteDiagnostic(&out, d, sources, false)
	if out.String() != plain {
		t.Errorf("plain: got:\n%q\nwant:\n%q", out.String(), plain)
	}
	// OpenTofu's format.Diagnostic, with colour: the left rule in the
	// severity's colour, the subject underlined.
	// Its colouring ends every coloured piece with a reset, so every line
	// of the frame, even an empty one, has a space after the rule.
	framed := "\x1b[31m╷\x1b[0m\x1b[0m\n" +
		"\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mUnsupported argument\x1b[0m\n" +
		"\x1b[31m│\x1b[0m \x1b[0m\n" +
		"\x1b[31m│\x1b[0m \x1b[0m\x1b[0m  on main.tf line 2, in resource \"null_resource\" \"x\":\n" +
		"\x1b[31m│\x1b[0m \x1b[0m   2:   \x1b[4mfoo\x1b[0m = 1\x1b[0m\n" +
		"\x1b[31m│\x1b[0m \x1b[0m\n" +
		"\x1b[31m│\x1b[0m \x1b[0mAn argument named \"foo\" is not expected here.\n" +
		"\x1b[31m╵\x1b[0m\x1b[0m\n"
	if got := FormatDiagnostic(d, sources, 78); got != framed {
		t.Errorf("framed: got:\n%q\nwant:\n%q", got, framed)
	}
}

// TestWriteDiagnosticWrapsDetail wraps the detail to the width, leaving
// lines that start with a space (commands, code) whole, as OpenTofu's
// DiagnosticPlain does; an address comes first, with its comma.
func TestWriteDiagnosticWrapsDetail(t *testing.T) {
	d := diags.Diagnostic{
		Severity: diags.Warning,
		Summary:  "Something to know",
		Detail:   "The first sentence of this detail is long enough that it has to be wrapped onto a second line.\n  terrane apply -refresh-only -target=module.a_very_long_module_name.some_resource_type.some_name",
		Address:  "tpf_thing.a",
	}
	want := "\n" +
		"Warning: Something to know\n" +
		"\n" +
		"  with tpf_thing.a,\n" +
		"The first sentence of this detail is long enough that it has to be wrapped\n" +
		"onto a second line.\n" +
		"  terrane apply -refresh-only -target=module.a_very_long_module_name.some_resource_type.some_name\n"
	if got := FormatDiagnosticPlain(d, nil, 78); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestWriteDiagnosticWithAddressAndPath shows a provider's diagnostic
// that was never placed in a configuration body: the address only, as
// OpenTofu shows an attribute diagnostic without a source range.
func TestWriteDiagnosticWithAddressAndPath(t *testing.T) {
	d := diags.Diagnostic{
		Severity:      diags.Warning,
		Summary:       "Value is deprecated",
		Address:       "tpf_thing.a",
		AttributePath: cty.GetAttrPath("block").IndexInt(0).GetAttr("name"),
	}
	var out strings.Builder
	WriteDiagnostic(&out, d, nil, false)
	want := "\nWarning: Value is deprecated\n\n  with tpf_thing.a,\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}
