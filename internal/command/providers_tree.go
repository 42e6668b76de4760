package command

import (
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/plugin/discovery"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/workdir"
)

// runProvidersTree is `terrane providers`: the module tree annotated with
// each module's provider requirements, then the providers the state's
// objects belong to, laid out as `tofu providers` lays them out. OpenTofu
// lists a module's providers and child modules in map order; Terrane lists
// them sorted.
func runProvidersTree(streams views.Streams, args []string) int {
	fs := newFlagSet("providers", streams)
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		return flagParseError(streams.Stderr, err, ui.ColorEnabled(*noColor))
	}
	color := ui.ColorEnabled(*noColor)
	if fs.NArg() > 0 {
		// As OpenTofu's providers: the error, then the command's help.
		writeLegacyDiagnostics(streams.Stderr, diags.Diagnostics{diags.Errorf("Unexpected argument",
			"Too many command line arguments. Did you mean to use -chdir?")}, color)
		printCommandHelp(streams.Stdout, "providers")
		return 1
	}
	parser := config.NewParser()
	cfg, hclDiags := modules.LoadConfig(parser, ".")
	var ds diags.Diagnostics
	if ds = ds.Append(hclDiags); ds.HasErrors() {
		ui.WriteDiagnostics(streams.Stderr, ds, ui.Sources(parser.Files()), color)
		return 1
	}
	tree, treeDiags := requirementsTree(cfg)
	if ds = ds.Append(treeDiags); ds.HasErrors() {
		ui.WriteDiagnostics(streams.Stderr, ds, ui.Sources(parser.Files()), color)
		return 1
	}
	// As OpenTofu's backend checks before anything else.
	if ds = ds.Append(workdir.CheckInstalledProviders(".")); ds.HasErrors() {
		ui.WriteDiagnostics(streams.Stderr, ds, ui.Sources(parser.Files()), color)
		return 1
	}
	fmt.Fprintln(streams.Stdout, "\nProviders required by configuration:")
	fmt.Fprintln(streams.Stdout, ".")
	tree.write(streams.Stdout, "")
	fmt.Fprintln(streams.Stdout)
	if snapshot, ds := loadWorkspaceState(context.Background(), ".", nil); !ds.HasErrors() {
		inState := providersInState(snapshot.State)
		if len(inState) > 0 {
			fmt.Fprint(streams.Stdout, "Providers required by state:\n\n")
			for _, provider := range providersByAddress(inState) {
				fmt.Fprintf(streams.Stdout, "    provider[%s]\n\n", provider)
			}
		}
	}
	ui.WriteDiagnostics(streams.Stdout, ds, ui.Sources(parser.Files()), color)
	return 0
}

// requirementNode is one module of the tree: its own provider
// requirements and its children by call name.
type requirementNode struct {
	providers map[addrs.Provider]discovery.Constraints
	children  map[string]*requirementNode
}

// requirementsTree collects each module's own requirements, as OpenTofu's
// ProviderRequirementsByModule does: required_providers entries, provider
// blocks' version arguments, and the providers of its resources.
func requirementsTree(cfg *config.Config) (*requirementNode, diags.Diagnostics) {
	var ds diags.Diagnostics
	node := &requirementNode{providers: map[addrs.Provider]discovery.Constraints{}, children: map[string]*requirementNode{}}
	use := func(provider addrs.Provider, constraint config.VersionConstraint) {
		if provider.IsZero() {
			return
		}
		spec := node.providers[provider]
		if constraint.Source != "" {
			parsed, err := discovery.ParseConstraints(constraint.Source)
			if err != nil {
				d := diags.Errorf("Invalid provider version constraint", "The version constraint %q for provider %s is not valid: %s.", constraint.Source, provider, err)
				if constraint.DeclRange.Filename != "" {
					d.Subject = constraint.DeclRange.Ptr()
				}
				ds = ds.Append(d)
			}
			spec = append(spec, parsed...)
		}
		node.providers[provider] = spec
	}
	workdir.EachProviderUse(cfg.Module, use)
	for name, child := range cfg.Children {
		childNode, childDiags := requirementsTree(child)
		ds = ds.Append(childDiags)
		node.children[name] = childNode
	}
	return node, ds
}

// write draws the node's branches under prefix, as treeprint draws them:
// providers first, then child modules.
func (n *requirementNode) write(w io.Writer, prefix string) {
	type line struct {
		text  string
		child *requirementNode
	}
	var lines []line
	for _, provider := range providersByAddress(n.providers) {
		text := fmt.Sprintf("provider[%s]", provider)
		if constraints := depsfile.ConstraintsString(n.providers[provider]); constraints != "" {
			text += " " + constraints
		}
		lines = append(lines, line{text: text})
	}
	names := make([]string, 0, len(n.children))
	for name := range n.children {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		lines = append(lines, line{text: "module." + name, child: n.children[name]})
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
