package command

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/lang/marks"
	"github.com/terrane/terrane/internal/lang/repl"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/statefile"
)

func readStateFileBytes(raw []byte) (*states.State, error) {
	file, err := statefile.Read(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return file.State, nil
}

// renderStateHuman prints each resource instance as a resource block with
// its attributes, sensitive ones hidden, then the root outputs.
func renderStateHuman(w io.Writer, state *states.State, schemas *providers.Schemas, color bool) diags.Diagnostics {
	var ds diags.Diagnostics
	entries := state.AllResourceInstances()
	if len(entries) == 0 && len(state.Outputs) == 0 {
		fmt.Fprintln(w, "The state file is empty. No resources are represented.")
		return nil
	}
	bold := func(s string) string {
		if color {
			return "\x1b[1m" + s + "\x1b[0m"
		}
		return s
	}
	for _, entry := range entries {
		if entry.Instance.Current == nil {
			continue
		}
		addr := entry.Addr.Resource.Resource
		resSchema, ok := schemas.ResourceType(entry.ProviderConfig.Provider, addr.Mode == addrs.DataResourceMode, addr.Type)
		if !ok {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Missing provider schema", Address: entry.Addr.String(),
				Detail: fmt.Sprintf("Provider %s is not installed, so %s cannot be shown. Run \"terrane init\" to install it.", entry.ProviderConfig.Provider, entry.Addr)})
			continue
		}
		obj, err := entry.Instance.Current.Decode(resSchema.Block.ImpliedType(), cty.NilType)
		if err != nil {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Cannot decode object", Address: entry.Addr.String(), Detail: err.Error()})
			continue
		}
		val := obj.Value
		if paths := resSchema.Block.SensitivePaths(val); len(paths) > 0 {
			pathMarks := make([]cty.PathValueMarks, len(paths))
			for i, path := range paths {
				pathMarks[i] = cty.PathValueMarks{Path: path, Marks: cty.NewValueMarks(marks.Sensitive)}
			}
			val = val.MarkWithPaths(pathMarks)
		}
		keyword := "resource"
		if addr.Mode == addrs.DataResourceMode {
			keyword = "data"
		}
		tainted := ""
		if obj.Status == states.ObjectTainted {
			tainted = " (tainted)"
		}
		fmt.Fprintf(w, "# %s:%s\n%s %q %q {\n", bold(entry.Addr.String()), tainted, keyword, addr.Type, addr.Name)
		writeAttributes(w, val)
		fmt.Fprint(w, "}\n\n")
	}
	if len(state.Outputs) > 0 {
		fmt.Fprint(w, "\nOutputs:\n\n")
		names := make([]string, 0, len(state.Outputs))
		for name := range state.Outputs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			output := state.Outputs[name]
			text := "(sensitive value)"
			if !output.Sensitive {
				text = repl.FormatValue(output.Value, 0)
			}
			fmt.Fprintf(w, "%s = %s\n", name, text)
		}
	}
	return ds
}

// writeAttributes prints an object's non-null attributes, names aligned.
func writeAttributes(w io.Writer, val cty.Value) {
	if val.IsNull() || !val.Type().IsObjectType() {
		return
	}
	var names []string
	width := 0
	for name := range val.Type().AttributeTypes() {
		if val.GetAttr(name).IsNull() {
			continue
		}
		names = append(names, name)
		width = max(width, len(name))
	}
	sort.Strings(names)
	for _, name := range names {
		attr := val.GetAttr(name)
		text := "(sensitive value)"
		if !attr.HasMark(marks.Sensitive) {
			text = repl.FormatValue(attr, 4)
		}
		fmt.Fprintf(w, "    %s%s = %s\n", name, strings.Repeat(" ", width-len(name)), text)
	}
}
