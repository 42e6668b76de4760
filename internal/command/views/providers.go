package views

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/jsonprovider"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/ui"
)

// ProviderTree is one module of a configuration as `terrane providers`
// draws it: the module's own provider requirements and its child modules
// by call name.
type ProviderTree struct {
	Providers map[addrs.Provider]discovery.Constraints
	Children  map[string]*ProviderTree
}

// Providers shows `terrane providers`: the module tree annotated with
// each module's provider requirements, then the providers the state's
// objects belong to, laid out as `tofu providers` lays them out. OpenTofu
// lists a module's providers and child modules in map order; Terrane
// lists them sorted.
type Providers struct {
	streams Streams
	color   bool
}

// NewProviders is the providers command's view.
func NewProviders(streams Streams, color bool) *Providers {
	return &Providers{streams: streams, color: color}
}

// Diagnostics writes why the command failed to stderr; they may quote
// the files in sources.
func (v *Providers) Diagnostics(ds diags.Diagnostics, sources ui.Sources) {
	ui.WriteDiagnostics(v.streams.Stderr, ds, sources, v.color)
}

// Warnings writes what the command warns of, after the rest, to stdout.
func (v *Providers) Warnings(ds diags.Diagnostics, sources ui.Sources) {
	ui.WriteDiagnostics(v.streams.Stdout, ds, sources, v.color)
}

// Requirements draws the configuration's tree of requirements, root
// its root module.
func (v *Providers) Requirements(root *ProviderTree) {
	fmt.Fprintln(v.streams.Stdout, "\nProviders required by configuration:")
	fmt.Fprintln(v.streams.Stdout, ".")
	root.write(v.streams.Stdout, "")
	fmt.Fprintln(v.streams.Stdout)
}

// StateProviders lists the providers of the state's objects, if any.
func (v *Providers) StateProviders(inState map[addrs.Provider]bool) {
	if len(inState) == 0 {
		return
	}
	fmt.Fprint(v.streams.Stdout, "Providers required by state:\n\n")
	for _, provider := range providersByAddress(inState) {
		fmt.Fprintf(v.streams.Stdout, "    provider[%s]\n\n", provider)
	}
}

// write draws the node's branches under prefix, as treeprint draws them:
// providers first, then child modules.
func (n *ProviderTree) write(w io.Writer, prefix string) {
	type line struct {
		text  string
		child *ProviderTree
	}
	var lines []line
	for _, provider := range providersByAddress(n.Providers) {
		text := fmt.Sprintf("provider[%s]", provider)
		if constraints := depsfile.ConstraintsString(n.Providers[provider]); constraints != "" {
			text += " " + constraints
		}
		lines = append(lines, line{text: text})
	}
	names := make([]string, 0, len(n.Children))
	for name := range n.Children {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		lines = append(lines, line{text: "module." + name, child: n.Children[name]})
	}
	for i, l := range lines {
		branch, indent := "├── ", "│   "
		if i == len(lines)-1 {
			branch, indent = "└── ", "    "
		}
		fmt.Fprintln(w, prefix+branch+l.text)
		if l.child != nil {
			l.child.write(w, prefix+indent)
		}
	}
}

// providersByAddress lists a map's providers by their address text.
func providersByAddress[V any](m map[addrs.Provider]V) []addrs.Provider {
	out := make([]addrs.Provider, 0, len(m))
	for provider := range m {
		out = append(out, provider)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// ProvidersSchema shows `terrane providers schema -json`: the schemas of
// the providers the configuration needs, in the shape of
// `terraform providers schema -json`.
type ProvidersSchema struct {
	streams Streams
	noColor bool
}

// NewProvidersSchema is the providers schema command's view.
func NewProvidersSchema(streams Streams, noColor bool) *ProvidersSchema {
	return &ProvidersSchema{streams: streams, noColor: noColor}
}

// ArgumentErrors reports a wrong command line.
func (v *ProvidersSchema) ArgumentErrors(ds diags.Diagnostics) {
	ui.WriteDiagnostics(v.streams.Stderr, ds, nil, ui.ColorEnabled(v.noColor))
}

// Diagnostics writes why the schemas could not be read, without colour,
// to stderr; they may quote the files in sources.
func (v *ProvidersSchema) Diagnostics(ds diags.Diagnostics, sources ui.Sources) {
	ui.WriteDiagnostics(v.streams.Stderr, ds, sources, false)
}

// Schemas writes the document of the providers' schemas, by provider
// address. It reports whether the document could be written.
func (v *ProvidersSchema) Schemas(schemas map[string]jsonprovider.Provider) bool {
	out, err := json.Marshal(jsonprovider.Marshal(schemas))
	if err != nil {
		fmt.Fprintf(v.streams.Stderr, "Error: cannot encode the provider schemas: %s\n", err)
		return false
	}
	fmt.Fprintln(v.streams.Stdout, string(out))
	return true
}
