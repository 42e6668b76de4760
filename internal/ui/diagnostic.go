package ui

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/terrane/terrane/internal/diags"
)

// Sources gives the text of configuration files by name, for snippets.
// A *hclparse.Parser's Files() map satisfies it through SourcesFromParser.
type Sources map[string]*hcl.File

// SourcesFromParser returns the files a parser has read.
func SourcesFromParser(p *hclparse.Parser) Sources {
	if p == nil {
		return nil
	}
	return Sources(p.Files())
}

// WriteDiagnostics writes every diagnostic in Terraform's boxed layout.
func WriteDiagnostics(w io.Writer, ds diags.Diagnostics, sources Sources, color bool) {
	for _, d := range ds {
		WriteDiagnostic(w, d, sources, color)
	}
}

// WriteDiagnostic writes one diagnostic: the severity and summary, where it
// is (file, line, enclosing block, the source line(s) with the subject
// marked when colour is on), the address and attribute it is about, and the
// detail that says what to do.
func WriteDiagnostic(w io.Writer, d diags.Diagnostic, sources Sources, color bool) {
	var body strings.Builder
	severity := d.Severity.String()
	if color {
		code := "31" // red
		if d.Severity == diags.Warning {
			code = "33"
		}
		severity = "\x1b[1;" + code + "m" + severity + "\x1b[0m"
		fmt.Fprintf(&body, "%s: \x1b[1m%s\x1b[0m\n", severity, d.Summary)
	} else {
		fmt.Fprintf(&body, "%s: %s\n", severity, d.Summary)
	}
	if d.Subject != nil {
		body.WriteString("\n")
		writeSnippet(&body, d, sources, color)
	}
	if d.Address != "" {
		body.WriteString("\n")
		fmt.Fprintf(&body, "  with %s", d.Address)
		if len(d.AttributePath) > 0 {
			fmt.Fprintf(&body, ",\n  on attribute %s", diags.FormatPath(d.AttributePath))
		}
		body.WriteString("\n")
	}
	if d.Detail != "" {
		body.WriteString("\n")
		body.WriteString(d.Detail)
		body.WriteString("\n")
	}
	frame(w, body.String(), d.Severity, color)
}

func writeSnippet(w *strings.Builder, d diags.Diagnostic, sources Sources, color bool) {
	subject := *d.Subject
	file := sources[subject.Filename]
	context := ""
	if file != nil {
		if c := hcled.ContextString(file, subject.Start.Byte-1); c != "" {
			context = ", in " + c
		}
	}
	fmt.Fprintf(w, "  on %s line %d%s:\n", subject.Filename, subject.Start.Line, context)
	if file == nil || file.Bytes == nil {
		return
	}
	snippetRange := subject
	if d.Context != nil {
		snippetRange = hcl.RangeOver(snippetRange, *d.Context)
	}
	sc := hcl.NewRangeScanner(file.Bytes, subject.Filename, bufio.ScanLines)
	for sc.Scan() {
		lineRange := sc.Range()
		if !lineRange.Overlaps(snippetRange) && lineRange.Start.Line != snippetRange.Start.Line {
			continue
		}
		line := sc.Bytes()
		if color && lineRange.Overlaps(subject) {
			before, highlighted, after := lineRange.PartitionAround(subject)
			line = bytes.Join([][]byte{
				file.Bytes[before.Start.Byte:before.End.Byte],
				[]byte("\x1b[4m"), file.Bytes[highlighted.Start.Byte:highlighted.End.Byte], []byte("\x1b[0m"),
				file.Bytes[after.Start.Byte:after.End.Byte],
			}, nil)
		}
		fmt.Fprintf(w, "  %4d: %s\n", lineRange.Start.Line, line)
	}
}

// frame draws Terraform's left rule around a diagnostic's text.
func frame(w io.Writer, text string, sev diags.Severity, color bool) {
	rule := func(s string) string {
		if !color {
			return s
		}
		code := "31"
		if sev == diags.Warning {
			code = "33"
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	fmt.Fprintln(w, rule("╷"))
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line == "" {
			fmt.Fprintln(w, rule("│"))
			continue
		}
		fmt.Fprintln(w, rule("│")+" "+line)
	}
	fmt.Fprintln(w, rule("╵"))
}
