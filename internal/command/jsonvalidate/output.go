package jsonvalidate

import (
	"bufio"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// FormatVersion is the version of the document's shape; consumers check its
// major part.
const FormatVersion = "1.0"

// Output is the whole document.
type Output struct {
	FormatVersion string       `json:"format_version"`
	Valid         bool         `json:"valid"`
	ErrorCount    int          `json:"error_count"`
	WarningCount  int          `json:"warning_count"`
	Diagnostics   []Diagnostic `json:"diagnostics"`
}

// Diagnostic is one error or warning.
type Diagnostic struct {
	Severity string   `json:"severity"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail"`
	Address  string   `json:"address,omitempty"`
	Range    *Range   `json:"range,omitempty"`
	Snippet  *Snippet `json:"snippet,omitempty"`
}

// Range is a span of a configuration file.
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// Pos is a position in a file: 1-based line and column (in characters),
// 0-based byte offset.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// Snippet is the source around a diagnostic: the lines it covers, where
// within them the subject lies, and what the variables of the failing
// expression held.
type Snippet struct {
	// Context names the enclosing block, such as `resource "a" "b"`; null
	// when there is none.
	Context *string `json:"context"`
	// Code is the whole lines the diagnostic covers, without the final
	// newline.
	Code      string `json:"code"`
	StartLine int    `json:"start_line"`
	// HighlightStartOffset and HighlightEndOffset are byte offsets into
	// Code of the diagnostic's subject.
	HighlightStartOffset int               `json:"highlight_start_offset"`
	HighlightEndOffset   int               `json:"highlight_end_offset"`
	Values               []ExpressionValue `json:"values"`
}

// ExpressionValue says what one reference in the failing expression held,
// such as var.name `is "web"`.
type ExpressionValue struct {
	Traversal string `json:"traversal"`
	Statement string `json:"statement"`
}

// Evaluation is the expression a diagnostic came from and the context it
// was evaluated in, when known.
type Evaluation struct {
	Expression  hcl.Expression
	EvalContext *hcl.EvalContext
}

// New builds the document for ds. evaluationOf, which may be nil, returns
// the expression behind a diagnostic so that its snippet can list the
// values involved.
func New(ds diags.Diagnostics, sources ui.Sources, evaluationOf func(diags.Diagnostic) *Evaluation) Output {
	out := Output{FormatVersion: FormatVersion, Diagnostics: make([]Diagnostic, 0, len(ds))}
	for _, d := range ds {
		switch d.Severity {
		case diags.Error:
			out.ErrorCount++
		case diags.Warning:
			out.WarningCount++
		}
		var eval *Evaluation
		if evaluationOf != nil {
			eval = evaluationOf(d)
		}
		out.Diagnostics = append(out.Diagnostics, NewDiagnostic(d, sources, eval))
	}
	out.Valid = out.ErrorCount == 0
	return out
}

// NewDiagnostic converts one diagnostic. The snippet is present only when
// the subject's file is among sources; eval may be nil.
func NewDiagnostic(d diags.Diagnostic, sources ui.Sources, eval *Evaluation) Diagnostic {
	out := Diagnostic{Severity: severityName(d.Severity), Summary: d.Summary, Detail: d.Detail, Address: d.Address}
	if d.Subject == nil {
		return out
	}
	highlight, snippetRange := sourceRanges(d)
	out.Range = &Range{Filename: highlight.Filename, Start: pos(highlight.Start), End: pos(highlight.End)}
	file := sources[highlight.Filename]
	if file == nil || file.Bytes == nil {
		return out
	}
	out.Snippet = newSnippet(file, highlight, snippetRange)
	if eval != nil && eval.Expression != nil {
		out.Snippet.Values = expressionValues(eval.Expression, eval.EvalContext)
	}
	return out
}

func severityName(s diags.Severity) string {
	switch s {
	case diags.Error:
		return "error"
	case diags.Warning:
		return "warning"
	default:
		return "unknown"
	}
}

func pos(p hcl.Pos) Pos { return Pos{Line: p.Line, Column: p.Column, Byte: p.Byte} }

// sourceRanges returns the range to highlight and the (wider or equal)
// range whose lines the snippet shows.
func sourceRanges(d diags.Diagnostic) (highlight, snippet hcl.Range) {
	highlight = *d.Subject
	// Some diagnostics carry only a start position.
	if highlight.End == (hcl.Pos{}) {
		highlight.End = highlight.Start
	}
	snippet = highlight
	if d.Context != nil {
		snippet = *d.Context
	}
	snippet = hcl.RangeOver(snippet, highlight)
	// An empty range would give an empty snippet and highlight; widen both
	// by one byte so the position stays visible, as Terraform does.
	if snippet.Empty() {
		snippet.End.Byte++
		snippet.End.Column++
	}
	if highlight.Empty() {
		highlight.End.Byte++
		highlight.End.Column++
	}
	return highlight, snippet
}

func newSnippet(file *hcl.File, highlight, snippetRange hcl.Range) *Snippet {
	snippet := &Snippet{StartLine: snippetRange.Start.Line, Values: []ExpressionValue{}}
	if context := hcled.ContextString(file, highlight.Start.Byte-1); context != "" {
		snippet.Context = &context
	}
	codeStart, code := codeLines(file.Bytes, highlight.Filename, snippetRange)
	snippet.Code = code
	start := highlight.Start.Byte - codeStart
	end := start + (highlight.End.Byte - highlight.Start.Byte)
	// Ranges that start or end on a line break can fall outside the lines
	// shown; clamp so consumers never index out of bounds.
	snippet.HighlightStartOffset = clamp(start, 0, len(code))
	snippet.HighlightEndOffset = clamp(end, 0, len(code))
	return snippet
}

// codeLines returns the whole lines of src that rng overlaps and the byte
// offset at which the first of them starts.
func codeLines(src []byte, filename string, rng hcl.Range) (int, string) {
	var code strings.Builder
	codeStart := -1
	sc := hcl.NewRangeScanner(src, filename, bufio.ScanLines)
	for sc.Scan() {
		line := sc.Range()
		if !line.Overlaps(rng) {
			continue
		}
		if codeStart < 0 {
			codeStart = line.Start.Byte
		}
		code.Write(line.SliceBytes(src))
		code.WriteByte('\n')
	}
	if codeStart < 0 {
		codeStart = 0
	}
	return codeStart, strings.TrimSuffix(code.String(), "\n")
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}
