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
	subject := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 3, Byte: 34}, End: hcl.Pos{Line: 2, Column: 6, Byte: 37}}
	d := diags.Diagnostic{
		Severity: diags.Error,
		Summary:  "Unsupported argument",
		Detail:   `An argument named "foo" is not expected here.`,
		Subject:  &subject,
	}
	var out strings.Builder
	WriteDiagnostic(&out, d, SourcesFromParser(parser), false)
	want := "╷\n" +
		"│ Error: Unsupported argument\n" +
		"│\n" +
		"│   on main.tf line 2, in resource \"null_resource\" \"x\":\n" +
		"│      2:   foo = 1\n" +
		"│\n" +
		"│ An argument named \"foo\" is not expected here.\n" +
		"╵\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestWriteDiagnosticWithAddressAndPath(t *testing.T) {
	d := diags.Diagnostic{
		Severity:      diags.Warning,
		Summary:       "Value is deprecated",
		Address:       "tpf_thing.a",
		AttributePath: cty.GetAttrPath("block").IndexInt(0).GetAttr("name"),
	}
	var out strings.Builder
	WriteDiagnostic(&out, d, nil, false)
	for _, want := range []string{"Warning: Value is deprecated", "with tpf_thing.a", "on attribute block[0].name"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
