package ui

import (
	"bufio"
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/terrane/terrane/internal/diags"
)

// This file builds the UI form of a diagnostic that every rendering starts
// from, as OpenTofu's jsonentities.NewDiagnostic does: the `-json`
// outputs write it as it is, and the human renderings draw it.

// DiagnosticJSON is a diagnostic as shown: its text, the range it is about,
// and the snippet of source around that range.
type DiagnosticJSON struct {
	Severity string                 `json:"severity"`
	Summary  string                 `json:"summary"`
	Detail   string                 `json:"detail"`
	Address  string                 `json:"address,omitempty"`
	Range    *DiagnosticRangeJSON   `json:"range,omitempty"`
	Snippet  *DiagnosticSnippetJSON `json:"snippet,omitempty"`
	// Difference is what a failed A == B compared (see
	// diagnosticDifference).
	Difference *DiagnosticDifferenceJSON `json:"difference,omitempty"`
}

// DiagnosticRangeJSON is a span of a configuration file.
type DiagnosticRangeJSON struct {
	Filename string  `json:"filename"`
	Start    PosJSON `json:"start"`
	End      PosJSON `json:"end"`
}

// PosJSON is a position in a file: 1-based line and column (in
// characters), 0-based byte offset.
type PosJSON struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// DiagnosticSnippetJSON is the source around a diagnostic: the whole lines
// it covers, where within them its subject lies, and what the references
// of the failing expression held.
type DiagnosticSnippetJSON struct {
	// Context names the enclosing block, such as `resource "a" "b"`; null
	// when there is none.
	Context *string `json:"context"`
	// Code is the lines the snippet covers, without the final newline.
	Code      string `json:"code"`
	StartLine int    `json:"start_line"`
	// HighlightStartOffset and HighlightEndOffset are byte offsets into
	// Code of the diagnostic's subject.
	HighlightStartOffset int                   `json:"highlight_start_offset"`
	HighlightEndOffset   int                   `json:"highlight_end_offset"`
	Values               []ExpressionValueJSON `json:"values"`
	FunctionCall         *FunctionCallJSON     `json:"function_call,omitempty"`
}

// ExpressionValueJSON says what one reference in the failing expression
// held, such as var.name `is "web"`.
type ExpressionValueJSON struct {
	Traversal string `json:"traversal"`
	Statement string `json:"statement"`
}

// FunctionCallJSON is the function call whose failure a diagnostic
// reports: the name it was called by and, when known, its signature.
type FunctionCallJSON struct {
	CalledAs  string        `json:"called_as"`
	Signature *FunctionJSON `json:"signature,omitempty"`
}

// FunctionJSON is a function's signature, as `metadata functions -json`
// describes one.
type FunctionJSON struct {
	Name          string              `json:"name"`
	Params        []FunctionParamJSON `json:"params"`
	VariadicParam *FunctionParamJSON  `json:"variadic_param,omitempty"`
	ReturnType    json.RawMessage     `json:"return_type"`
}

// FunctionParamJSON is one parameter of a function.
type FunctionParamJSON struct {
	Name string          `json:"name"`
	Type json.RawMessage `json:"type"`
}

// NewDiagnosticJSON builds the UI form of d. The snippet is there only
// when the subject's file is among sources.
func NewDiagnosticJSON(d diags.Diagnostic, sources Sources) *DiagnosticJSON {
	out := &DiagnosticJSON{Severity: severityName(d.Severity), Summary: d.Summary, Detail: d.Detail, Address: d.Address,
		Difference: diagnosticDifference(d)}
	if d.Subject == nil {
		return out
	}
	highlight, snippetRange := diagnosticRanges(d)
	out.Range = &DiagnosticRangeJSON{Filename: highlight.Filename, Start: posJSON(highlight.Start), End: posJSON(highlight.End)}
	file := sources[snippetRange.Filename]
	if file == nil || file.Bytes == nil {
		return out
	}
	out.Snippet = newSnippetJSON(withNavigation(file, snippetRange.Filename), highlight, snippetRange)
	out.Snippet.Values = expressionValues(d)
	out.Snippet.FunctionCall = functionCall(d)
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

func posJSON(p hcl.Pos) PosJSON { return PosJSON{Line: p.Line, Column: p.Column, Byte: p.Byte} }

// diagnosticRanges returns the range to highlight and the (wider or
// equal) range whose lines the snippet shows. Neither is ever empty: an
// empty one is widened by a byte so that the position stays visible.
func diagnosticRanges(d diags.Diagnostic) (highlight, snippet hcl.Range) {
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
	if highlight.Empty() {
		highlight.End.Byte++
		highlight.End.Column++
	}
	if snippet.Empty() {
		snippet.End.Byte++
		snippet.End.Column++
	}
	return highlight, snippet
}

// withNavigation returns file, parsed again when it lacks the navigation
// data that names the block around a position (a file made by hand rather
// than by HCL's parser).
func withNavigation(file *hcl.File, filename string) *hcl.File {
	if file.Nav != nil {
		return file
	}
	parser := hclparse.NewParser()
	var parsed *hcl.File
	if strings.HasSuffix(filename, ".json") {
		parsed, _ = parser.ParseJSON(file.Bytes, filename)
	} else {
		parsed, _ = parser.ParseHCL(file.Bytes, filename)
	}
	if parsed == nil {
		return file
	}
	return parsed
}

func newSnippetJSON(file *hcl.File, highlight, snippetRange hcl.Range) *DiagnosticSnippetJSON {
	snippet := &DiagnosticSnippetJSON{StartLine: snippetRange.Start.Line, Values: []ExpressionValueJSON{}}
	if context := hcled.ContextString(file, highlight.Start.Byte-1); context != "" {
		snippet.Context = &context
	}
	codeStart, code := codeLines(file.Bytes, highlight.Filename, snippetRange)
	snippet.Code = code
	start := highlight.Start.Byte - codeStart
	end := start + (highlight.End.Byte - highlight.Start.Byte)
	// Ranges that start or end on a line break can fall outside the lines
	// shown; clamp so consumers never index out of bounds.
	snippet.HighlightStartOffset = max(0, min(start, len(code)))
	snippet.HighlightEndOffset = max(0, min(end, len(code)))
	return snippet
}

// codeLines returns the whole lines of src that rng overlaps and the byte
// offset at which the first of them starts.
func codeLines(src []byte, filename string, rng hcl.Range) (int, string) {
	var code strings.Builder
	codeStart := 0
	sc := hcl.NewRangeScanner(src, filename, bufio.ScanLines)
	for sc.Scan() {
		line := sc.Range()
		if !line.Overlaps(rng) {
			continue
		}
		if codeStart == 0 && code.Len() == 0 {
			codeStart = line.Start.Byte
		}
		code.Write(line.SliceBytes(src))
		code.WriteByte('\n')
	}
	return codeStart, strings.TrimSuffix(code.String(), "\n")
}

// functionCallInfo is what HCL's native syntax puts in the Extra of a
// diagnostic about a failed function call. A call to an unknown function
// carries only the name, without FunctionCallError, and, as in OpenTofu,
// has no function_call.
type functionCallInfo interface {
	CalledFunctionName() string
	FunctionCallError() error
}

// functionCall describes the function call d reports the failure of, with
// its signature when the evaluation context has the function.
func functionCall(d diags.Diagnostic) *FunctionCallJSON {
	if d.Expression == nil || d.EvalContext == nil {
		return nil
	}
	call, ok := diags.ExtraAs[functionCallInfo](d.Extra)
	if !ok || call.CalledFunctionName() == "" {
		return nil
	}
	calledAs := call.CalledFunctionName()
	out := &FunctionCallJSON{CalledAs: calledAs}
	if f, ok := d.EvalContext.Functions[calledAs]; ok {
		name := calledAs
		if i := strings.LastIndex(name, "::"); i >= 0 {
			name = name[i+2:]
		}
		out.Signature = DescribeFunction(name, f)
	}
	return out
}

// DescribeFunction describes a function's signature: its parameters'
// type constraints and the return type it has for arguments of exactly
// those types (dynamic when that cannot be worked out).
func DescribeFunction(name string, f function.Function) *FunctionJSON {
	out := &FunctionJSON{Name: name}
	params := f.Params()
	out.Params = make([]FunctionParamJSON, len(params))
	argTypes := make([]cty.Type, len(params), len(params)+1)
	for i, p := range params {
		out.Params[i] = FunctionParamJSON{Name: p.Name, Type: typeJSON(p.Type)}
		argTypes[i] = p.Type
	}
	if v := f.VarParam(); v != nil {
		out.VariadicParam = &FunctionParamJSON{Name: v.Name, Type: typeJSON(v.Type)}
		argTypes = append(argTypes, v.Type)
	}
	ret, err := f.ReturnType(argTypes)
	if err != nil {
		ret = cty.DynamicPseudoType
	}
	out.ReturnType = typeJSON(ret)
	return out
}

func typeJSON(ty cty.Type) json.RawMessage {
	raw, err := ty.MarshalJSON()
	if err != nil {
		return json.RawMessage(`"dynamic"`)
	}
	return raw
}
