package repl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/marks"
)

// FormatValue renders v as console output: language syntax that also shows
// the exact type (tolist, toset, tomap, typed nulls), so two values that
// print alike are alike. indent is the column nested lines start at.
func FormatValue(v cty.Value, indent int) string {
	if !v.IsKnown() {
		return "(known after apply)"
	}
	if v.HasMark(marks.Sensitive) {
		return "(sensitive value)"
	}
	if v.IsNull() {
		return formatNull(v.Type())
	}
	// Marks of other kinds must not stop AsString and friends below.
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case ty == cty.String:
		if heredoc, ok := formatHeredoc(v.AsString(), indent); ok {
			return heredoc
		}
		return strconv.Quote(v.AsString())
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsObjectType():
		return formatMapping(v, indent)
	case ty.IsTupleType():
		return formatSequence(v, indent)
	case ty.IsListType():
		return "tolist(" + formatSequence(v, indent) + ")"
	case ty.IsSetType():
		return "toset(" + formatSequence(v, indent) + ")"
	case ty.IsMapType():
		return "tomap(" + formatMapping(v, indent) + ")"
	}
	return fmt.Sprintf("%#v", v)
}

func formatNull(ty cty.Type) string {
	switch {
	case ty == cty.DynamicPseudoType:
		return "null"
	case ty == cty.String:
		return "tostring(null)"
	case ty == cty.Number:
		return "tonumber(null)"
	case ty == cty.Bool:
		return "tobool(null)"
	case ty.IsListType():
		return "tolist(null) /* of " + ty.ElementType().FriendlyName() + " */"
	case ty.IsSetType():
		return "toset(null) /* of " + ty.ElementType().FriendlyName() + " */"
	case ty.IsMapType():
		return "tomap(null) /* of " + ty.ElementType().FriendlyName() + " */"
	}
	return "null /* " + ty.FriendlyName() + " */"
}

// formatHeredoc renders a string of two or more lines as a heredoc, with a
// delimiter no line of the string could be mistaken for; nested values use
// the indented <<- form.
func formatHeredoc(s string, indent int) (string, bool) {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return "", false
	}
	operator := "<<"
	if indent > 0 {
		operator = "<<-"
	}
	delimiter := "EOT"
	for clashes(lines, delimiter) {
		delimiter += "_"
	}
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	b.WriteString(operator + delimiter)
	for _, line := range lines {
		b.WriteString("\n" + pad + line)
	}
	b.WriteString("\n" + pad + delimiter)
	return b.String(), true
}

func clashes(lines []string, delimiter string) bool {
	for _, line := range lines {
		if strings.TrimSpace(line) == delimiter {
			return true
		}
	}
	return false
}

func formatMapping(v cty.Value, indent int) string {
	var b strings.Builder
	b.WriteByte('{')
	pad := strings.Repeat(" ", indent+2)
	for it := v.ElementIterator(); it.Next(); {
		key, elem := it.Element()
		b.WriteString("\n" + pad + FormatValue(key, indent+2) + " = " + FormatValue(elem, indent+2))
	}
	if v.LengthInt() > 0 {
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	b.WriteByte('}')
	return b.String()
}

func formatSequence(v cty.Value, indent int) string {
	var b strings.Builder
	b.WriteByte('[')
	pad := strings.Repeat(" ", indent+2)
	for it := v.ElementIterator(); it.Next(); {
		_, elem := it.Element()
		b.WriteString("\n" + pad + FormatValue(elem, indent+2) + ",")
	}
	if v.LengthInt() > 0 {
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	b.WriteByte(']')
	return b.String()
}

// TypeString renders a type as a type constraint expression, objects and
// tuples spread over indented lines, for the console's type() function.
func TypeString(ty cty.Type) string {
	var b strings.Builder
	writeType(&b, ty, 0)
	return b.String()
}

func writeType(b *strings.Builder, ty cty.Type, depth int) {
	pad := func(d int) string { return strings.Repeat("    ", d) }
	switch {
	case ty.IsObjectType():
		names := sortedAttributeNames(ty)
		if len(names) == 0 {
			b.WriteString("object({})")
			return
		}
		b.WriteString("object({\n")
		for _, name := range names {
			b.WriteString(pad(depth+1) + name + ": ")
			writeType(b, ty.AttributeType(name), depth+1)
			b.WriteString(",\n")
		}
		b.WriteString(pad(depth) + "})")
	case ty.IsTupleType():
		elems := ty.TupleElementTypes()
		if len(elems) == 0 {
			b.WriteString("tuple([])")
			return
		}
		b.WriteString("tuple([\n")
		for _, elem := range elems {
			b.WriteString(pad(depth + 1))
			writeType(b, elem, depth+1)
			b.WriteString(",\n")
		}
		b.WriteString(pad(depth) + "])")
	case ty.IsCollectionType():
		writeCollectionType(b, ty, depth)
	default:
		b.WriteString(ty.FriendlyName())
	}
}

// writeCollectionType puts a structural element type on its own indented
// lines so the collection around it stays visible.
func writeCollectionType(b *strings.Builder, ty cty.Type, depth int) {
	switch {
	case ty.IsListType():
		b.WriteString("list(")
	case ty.IsMapType():
		b.WriteString("map(")
	default:
		b.WriteString("set(")
	}
	elem := ty.ElementType()
	if elem.IsObjectType() || elem.IsTupleType() {
		b.WriteString("\n" + strings.Repeat("    ", depth+1))
		writeType(b, elem, depth+1)
		b.WriteString(",\n" + strings.Repeat("    ", depth) + ")")
		return
	}
	writeType(b, elem, depth)
	b.WriteString(")")
}
