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
	"github.com/mitchellh/go-wordwrap"

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

// WriteDiagnostics writes every diagnostic as OpenTofu's views do: sorted
// (see SortDiagnostics), warnings with the same summary shown once (see
// ConsolidateDiagnostics), with colour in its left-ruled frame, without
// colour (-no-color, NO_COLOR) in its plain layout for automation, the
// detail wrapped to w's width.
func WriteDiagnostics(w io.Writer, ds diags.Diagnostics, sources Sources, color bool) {
	width := Width(w)
	for _, group := range ConsolidateDiagnostics(SortDiagnostics(ds), diags.Warning) {
		d := group.Described()
		if color {
			io.WriteString(w, FormatDiagnostic(d, sources, width))
		} else {
			io.WriteString(w, FormatDiagnosticPlain(d, sources, width))
		}
	}
}

// WriteDiagnostic writes one diagnostic; see WriteDiagnostics.
func WriteDiagnostic(w io.Writer, d diags.Diagnostic, sources Sources, color bool) {
	WriteDiagnostics(w, diags.Diagnostics{d}, sources, color)
}

// FormatDiagnostic lays a diagnostic out as OpenTofu's format.Diagnostic
// does: the severity and summary, where it is (the address it is about,
// the file, line and enclosing block, the source lines with the subject
// underlined), then the detail wrapped to width, every line behind a
// coloured left rule.
func FormatDiagnostic(d diags.Diagnostic, sources Sources, width int) string {
	pal := palette{enabled: true}
	rule := pal.red
	if d.Severity == diags.Warning {
		rule = pal.yellow
	}
	var body strings.Builder
	body.WriteString(pal.bold(rule(d.Severity.String()+": ")) + pal.bold(d.Summary) + "\n\n")
	writeWhere(&body, d, sources, true)
	writeDetail(&body, d.Detail, width-3)
	var out strings.Builder
	out.WriteString(rule("╷") + "\n")
	for _, line := range strings.Split(strings.TrimSuffix(body.String(), "\n"), "\n") {
		if line == "" {
			out.WriteString(rule("│") + "\n")
			continue
		}
		out.WriteString(rule("│") + " " + line + "\n")
	}
	out.WriteString(rule("╵") + "\n")
	return out.String()
}

// FormatDiagnosticPlain lays a diagnostic out as OpenTofu's
// format.DiagnosticPlain does for output without colour: no frame, a
// blank line before it, the detail wrapped to width.
func FormatDiagnosticPlain(d diags.Diagnostic, sources Sources, width int) string {
	var out strings.Builder
	out.WriteString("\n" + d.Severity.String() + ": " + d.Summary + "\n\n")
	writeWhere(&out, d, sources, false)
	writeDetail(&out, d.Detail, width-1)
	return out.String()
}

// writeWhere writes the address a diagnostic is about and its source
// snippet. A blank line follows a snippet; as in OpenTofu, none follows an
// address alone.
func writeWhere(w *strings.Builder, d diags.Diagnostic, sources Sources, color bool) {
	// A failed custom condition names its object only for the checks
	// that match it; OpenTofu's message shows no address.
	if d.Address != "" && !d.FailedCheck {
		fmt.Fprintf(w, "  with %s,\n", d.Address)
		if len(d.AttributePath) > 0 && d.Subject == nil {
			// OpenTofu points at the configuration line the attribute
			// came from; with no source range known, name the attribute.
			fmt.Fprintf(w, "  on attribute %s,\n", diags.FormatPath(d.AttributePath))
		}
	}
	if d.Subject == nil {
		return
	}
	writeSnippet(w, d, sources, color)
	w.WriteString("\n")
}

// writeDetail writes the detail, wrapping each line that does not start
// with a space (those are code or commands, kept whole) to width.
func writeDetail(w *strings.Builder, detail string, width int) {
	if detail == "" {
		return
	}
	for _, line := range strings.Split(detail, "\n") {
		if width > 0 && !strings.HasPrefix(line, " ") {
			line = wordwrap.WrapString(line, uint(width))
		}
		w.WriteString(line + "\n")
	}
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
		w.WriteString("  (source code not available)\n")
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
				[]byte("\x1b[4m"), file.Bytes[highlighted.Start.Byte:highlighted.End.Byte], []byte(ansiReset),
				file.Bytes[after.Start.Byte:after.End.Byte],
			}, nil)
		}
		fmt.Fprintf(w, "%4d: %s\n", lineRange.Start.Line, line)
	}
}
