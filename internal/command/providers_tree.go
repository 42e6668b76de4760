package command

import (
	"context"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config"
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
	view := views.NewProviders(streams, color)
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
		view.Diagnostics(ds, ui.Sources(parser.Files()))
		return 1
	}
	tree, treeDiags := requirementsTree(cfg)
	if ds = ds.Append(treeDiags); ds.HasErrors() {
		view.Diagnostics(ds, ui.Sources(parser.Files()))
		return 1
	}
	// As OpenTofu's backend checks before anything else.
	if ds = ds.Append(workdir.CheckInstalledProviders(".")); ds.HasErrors() {
		view.Diagnostics(ds, ui.Sources(parser.Files()))
		return 1
	}
	view.Requirements(tree)
	if snapshot, stateDiags := loadWorkspaceState(context.Background(), ".", nil); !stateDiags.HasErrors() {
		view.StateProviders(providersInState(snapshot.State))
	}
	view.Warnings(ds, ui.Sources(parser.Files()))
	return 0
}

// requirementsTree collects each module's own requirements, as OpenTofu's
// ProviderRequirementsByModule does: required_providers entries, provider
// blocks' version arguments, and the providers of its resources.
func requirementsTree(cfg *config.Config) (*views.ProviderTree, diags.Diagnostics) {
	var ds diags.Diagnostics
	node := &views.ProviderTree{Providers: map[addrs.Provider]discovery.Constraints{}, Children: map[string]*views.ProviderTree{}}
	use := func(provider addrs.Provider, constraint config.VersionConstraint) {
		if provider.IsZero() {
			return
		}
		spec := node.Providers[provider]
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
		node.Providers[provider] = spec
	}
	workdir.EachProviderUse(cfg.Module, use)
	for name, child := range cfg.Children {
		childNode, childDiags := requirementsTree(child)
		ds = ds.Append(childDiags)
		node.Children[name] = childNode
	}
	return node, ds
}
