package ui

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
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

// WriteDiagnostics writes every diagnostic as OpenTofu's views do by
// default: sorted (see SortDiagnostics), warnings with the same summary
// shown once (see ConsolidateDiagnostics), with colour in its left-ruled
// frame, without colour (-no-color) in its plain layout for
// automation, the detail wrapped to w's width.
func WriteDiagnostics(w io.Writer, ds diags.Diagnostics, sources Sources, color bool) {
	DiagnosticView{Color: color, ConsolidateWarnings: true}.write(w, w, ds, sources, Width(w))
}

// WriteDiagnostic writes one diagnostic; see WriteDiagnostics.
func WriteDiagnostic(w io.Writer, d diags.Diagnostic, sources Sources, color bool) {
	WriteDiagnostics(w, diags.Diagnostics{d}, sources, color)
}

// FormatDiagnostic lays a diagnostic out as OpenTofu's format.Diagnostic
// does: the severity and summary, where it is (the address it is about,
// the file, line and enclosing block, the source lines with the subject
// underlined, the values of the failing expression's references), then
// the detail wrapped to width, every line behind a coloured left rule.
func FormatDiagnostic(d diags.Diagnostic, sources Sources, width int) string {
	return formatFramed(NewDiagnosticJSON(d, sources), width)
}

// FormatDiagnosticPlain lays a diagnostic out as OpenTofu's
// format.DiagnosticPlain does for output without colour: no frame, a
// blank line before it, the detail wrapped to width.
func FormatDiagnosticPlain(d diags.Diagnostic, sources Sources, width int) string {
	return formatPlain(NewDiagnosticJSON(d, sources), width)
}

// formatFramed draws a diagnostic in colour. The bytes are the ones
// OpenTofu writes, resets included: its colouring ends every coloured
// piece of text with a reset, so that even an empty line of the frame has
// a space after the rule.
func formatFramed(d *DiagnosticJSON, width int) string {
	var buf strings.Builder
	var ruleColor string
	switch d.Severity {
	case "error":
		ruleColor = "[red]"
	case "warning":
		ruleColor = "[yellow]"
	}
	if ruleColor != "" {
		buf.WriteString(colorize("[bold]" + ruleColor + titleOf(d.Severity) + ": [reset]"))
	} else {
		buf.WriteString(colorize("\n[reset]"))
	}
	fmt.Fprintf(&buf, colorize("[bold]%s[reset]\n\n"), replaceControlChars(d.Summary))
	writeSnippet(&buf, d, true)
	if d.Detail != "" {
		if paraWidth := width - 3; paraWidth > 0 {
			writeWrapped(&buf, replaceControlChars(d.Detail), paraWidth)
		} else {
			buf.WriteString(d.Detail + "\n")
		}
	}
	lineRule, startRule, endRule := colorize(ruleColor+"│[reset] "), colorize(ruleColor+"╷[reset]"), colorize(ruleColor+"╵[reset]")
	var out strings.Builder
	out.WriteString(startRule + "\n")
	sc := bufio.NewScanner(strings.NewReader(buf.String()))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		prefix := lineRule
		if sc.Text() == "" {
			prefix = strings.TrimSpace(prefix)
		}
		out.WriteString(prefix + sc.Text() + "\n")
	}
	out.WriteString(endRule + "\n")
	return out.String()
}

// formatPlain lays a diagnostic out without colour.
func formatPlain(d *DiagnosticJSON, width int) string {
	var buf strings.Builder
	buf.WriteString("\n")
	if title := titleOf(d.Severity); title != "" {
		buf.WriteString(title + ": ")
	}
	buf.WriteString(d.Summary + "\n\n")
	writeSnippet(&buf, d, false)
	if d.Detail != "" {
		if width > 1 {
			writeWrapped(&buf, d.Detail, width-1)
		} else {
			buf.WriteString(d.Detail + "\n")
		}
	}
	return buf.String()
}

func titleOf(severity string) string {
	switch severity {
	case "error":
		return "Error"
	case "warning":
		return "Warning"
	}
	return ""
}

// writeWrapped writes text, wrapping each line that does not start with a
// space (those are code or commands, kept whole) to width.
func writeWrapped(w *strings.Builder, text string, width int) {
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, " ") {
			line = wordwrap.WrapString(line, uint(width))
		}
		w.WriteString(line + "\n")
	}
}

// writeSnippet writes the address a diagnostic is about and where it is:
// the file and line, the source lines with the subject underlined (in
// colour), and the values of the failing expression's references. A blank
// line follows where the diagnostic has a range; none follows an address
// alone.
func writeSnippet(w *strings.Builder, d *DiagnosticJSON, color bool) {
	c := func(s string) string {
		if color {
			return colorize(s)
		}
		return stripColors(s)
	}
	if d.Address != "" {
		fmt.Fprintf(w, "  with %s,\n", d.Address)
	}
	if d.Range == nil {
		return
	}
	snippet := d.Snippet
	if snippet == nil {
		fmt.Fprintf(w, "  on %s line %d:\n  (source code not available)\n", replaceControlChars(d.Range.Filename), d.Range.Start.Line)
		w.WriteString("\n")
		return
	}
	context := ""
	if snippet.Context != nil {
		context = ", in " + *snippet.Context
	}
	fmt.Fprintf(w, "  on %s line %d%s:\n", replaceControlChars(d.Range.Filename), d.Range.Start.Line, context)
	code := snippet.Code
	start, end := snippet.HighlightStartOffset, snippet.HighlightEndOffset
	if end < start {
		end = min(start+1, len(code))
	}
	start, end = max(0, min(start, len(code))), max(0, min(end, len(code)))
	code = fmt.Sprintf(c("%s[underline]%s[reset]%s"), replaceControlChars(code[:start]), replaceControlChars(code[start:end]), replaceControlChars(code[end:]))
	for i, line := range strings.Split(code, "\n") {
		fmt.Fprintf(w, "%4d: %s\n", snippet.StartLine+i, line)
	}
	call := snippet.FunctionCall
	if len(snippet.Values) > 0 || (call != nil && call.Signature != nil) {
		w.WriteString(c("    [dark_gray]├────────────────[reset]\n"))
		if call != nil && call.Signature != nil {
			fmt.Fprintf(w, c("    [dark_gray]│[reset] while calling [bold]%s[reset]("), call.CalledAs)
			var names []string
			for _, p := range call.Signature.Params {
				names = append(names, p.Name)
			}
			if v := call.Signature.VariadicParam; v != nil {
				names = append(names, v.Name+"...")
			}
			w.WriteString(strings.Join(names, ", ") + ")\n")
		}
		for _, v := range snippet.Values {
			fmt.Fprintf(w, c("    [dark_gray]│[reset] [bold]%s[reset] %s\n"), v.Traversal, v.Statement)
		}
	}
	writeDifference(w, d, color)
	w.WriteString("\n")
}
