package ui

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/lang/repl"
	"github.com/terrane/terrane/internal/marks"
)

// ApplySummary is what an apply did, counted by the engine.
type ApplySummary struct {
	// Destroy is true for "terrane destroy" (and apply of a destroy plan):
	// the summary then counts only what was destroyed and lists no outputs.
	Destroy                                        bool
	Imported, Added, Changed, Destroyed, Forgotten int
	// Outputs are the root module's output values after the apply.
	Outputs []OutputValue
}

// OutputValue is one root module output as the state now holds it.
type OutputValue struct {
	Name  string
	Value cty.Value
	// Sensitive is true when the output is declared sensitive; values
	// carrying the sensitive mark are hidden too.
	Sensitive bool
}

// RenderApplySummary writes the closing lines of an apply or destroy:
// "Apply complete! Resources: 1 added, 0 changed, 0 destroyed." and the
// outputs, one "name = value" each in name order, sensitive ones as
// <sensitive>.
func RenderApplySummary(w io.Writer, summary ApplySummary, color bool) error {
	pal := palette{enabled: color}
	var b strings.Builder
	if summary.Destroy {
		b.WriteString("\n" + pal.boldGreen(fmt.Sprintf("Destroy complete! Resources: %d destroyed.", summary.Destroyed)) + "\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	var counts []string
	if summary.Imported > 0 {
		counts = append(counts, fmt.Sprintf("%d imported", summary.Imported))
	}
	counts = append(counts, fmt.Sprintf("%d added", summary.Added), fmt.Sprintf("%d changed", summary.Changed), fmt.Sprintf("%d destroyed", summary.Destroyed))
	if summary.Forgotten > 0 {
		counts = append(counts, fmt.Sprintf("%d forgotten", summary.Forgotten))
	}
	b.WriteString("\n" + pal.boldGreen("Apply complete! Resources: "+strings.Join(counts, ", ")+".") + "\n")
	b.WriteString(renderOutputValues(summary.Outputs, pal))
	_, err := io.WriteString(w, b.String())
	return err
}

// RenderOutputValues lists output values under an "Outputs:" heading, or
// nothing when there are none, as an apply ends and as a refresh does
// (OpenTofu's views.RefreshHuman.Outputs).
func RenderOutputValues(outputs []OutputValue, color bool) string {
	return renderOutputValues(outputs, palette{enabled: color})
}

// renderOutputValues lists output values under an "Outputs:" heading, or
// nothing when there are none. A null one is listed too: a null value is
// not recorded, but one an apply could not know (an instance left out by
// -target) is recorded as null, and OpenTofu lists it.
func renderOutputValues(outputs []OutputValue, pal palette) string {
	sorted := make([]OutputValue, 0, len(outputs))
	for _, output := range outputs {
		if output.Value != cty.NilVal {
			sorted = append(sorted, output)
		}
	}
	if len(sorted) == 0 {
		return ""
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var b strings.Builder
	b.WriteString("\n" + pal.boldGreen("Outputs:") + "\n\n")
	for _, output := range sorted {
		text := "<sensitive>"
		if !output.Sensitive && !marks.Contains(output.Value, marks.Sensitive) {
			text = repl.FormatValue(output.Value, 0)
		}
		fmt.Fprintf(&b, "%s = %s\n", output.Name, text)
	}
	return b.String()
}
