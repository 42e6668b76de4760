package command

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// runGraph is `terrane graph [-type=plan|apply]`: the configuration's
// resources and which ones each depends on, in the DOT language, as
// Terraform prints it. Dependencies through locals, variables, module
// inputs and module outputs are followed to the resources behind them.
func runGraph(streams Streams, args []string) int {
	fs := newFlagSet("graph", streams)
	graphType := fs.String("type", "plan", "The operation the graph is for: plan, plan-refresh-only, plan-destroy or apply")
	fs.Bool("draw-cycles", false, "Accepted for compatibility")
	fs.Int("module-depth", -1, "Accepted for compatibility")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	color := ui.ColorEnabled(*noColor)
	fail := func(ds diags.Diagnostics, sources ui.Sources) int {
		ui.WriteDiagnostics(streams.Stderr, ds, sources, color)
		return 1
	}
	switch *graphType {
	case "plan", "plan-refresh-only", "plan-destroy", "apply":
	default:
		return fail(diags.Diagnostics{diags.Errorf("Invalid graph type", "-type=%s is not a graph type; use plan, plan-refresh-only, plan-destroy or apply.", *graphType)}, nil)
	}
	if fs.NArg() > 0 {
		return fail(diags.Diagnostics{diags.Errorf("Unexpected argument", "terrane graph takes no positional arguments (got %q); to graph a configuration in another directory, use the global -chdir=DIR option.", fs.Arg(0))}, nil)
	}
	parser := config.NewParser()
	cfg, hclDiags := parser.LoadConfig(".")
	if hclDiags.HasErrors() || cfg == nil {
		return fail(diags.Diagnostics{}.Append(hclDiags), ui.Sources(parser.Files()))
	}
	writeDOT(streams.Stdout, resourceDependencies(cfg))
	return 0
}

// dependencyGraph maps each node (an object address in the module tree) to
// the nodes its expressions refer to.
type dependencyGraph map[string][]string

// resourceDependencies returns, for every resource of the tree, the
// resources it depends on directly or through non-resource objects.
func resourceDependencies(root *config.Config) map[string][]string {
	graph := dependencyGraph{}
	resources := map[string]bool{}
	root.DeepEach(func(c *config.Config) { addModuleNodes(graph, resources, c) })
	out := make(map[string][]string, len(resources))
	for resource := range resources {
		reached := map[string]bool{}
		var visit func(node string)
		visit = func(node string) {
			for _, next := range graph[node] {
				if reached[next] {
					continue
				}
				reached[next] = true
				if !resources[next] {
					visit(next)
				}
			}
		}
		visit(resource)
		var deps []string
		for node := range reached {
			if resources[node] && node != resource {
				deps = append(deps, node)
			}
		}
		slices.Sort(deps)
		out[resource] = deps
	}
	return out
}

func modulePrefix(path addrs.Module) string {
	var b strings.Builder
	for _, name := range path {
		b.WriteString("module." + name + ".")
	}
	return b.String()
}

func addModuleNodes(graph dependencyGraph, resources map[string]bool, c *config.Config) {
	prefix := modulePrefix(c.Path)
	refer := func(node string, exprs []hcl.Expression, bodies []hcl.Body, dependsOn []hcl.Traversal) {
		traversals := slices.Clone(dependsOn)
		for _, expr := range exprs {
			if expr != nil {
				traversals = append(traversals, expr.Variables()...)
			}
		}
		for _, body := range bodies {
			traversals = append(traversals, bodyTraversals(body)...)
		}
		for _, traversal := range traversals {
			ref, refDiags := addrs.ParseRef(traversal)
			if refDiags.HasErrors() {
				continue
			}
			graph[node] = append(graph[node], referencedNodes(c, prefix, ref.Subject)...)
		}
	}
	for addr, res := range c.Module.Resources {
		node := prefix + addr.String()
		resources[node] = true
		refer(node, []hcl.Expression{res.Count, res.ForEach, res.Enabled}, []hcl.Body{res.Config}, res.DependsOn)
	}
	for name, local := range c.Module.Locals {
		refer(prefix+"local."+name, []hcl.Expression{local.Expr}, nil, nil)
	}
	for name, output := range c.Module.Outputs {
		refer(prefix+"output."+name, []hcl.Expression{output.Expr}, nil, output.DependsOn)
	}
	if c.Parent == nil {
		return
	}
	// A module's variables take their values from the arguments of the
	// call in the parent module, evaluated there.
	call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
	if call == nil {
		return
	}
	args, _ := call.Config.JustAttributes()
	parentPrefix := modulePrefix(c.Parent.Path)
	for name := range c.Module.Variables {
		exprs := []hcl.Expression{call.Count, call.ForEach, call.Enabled}
		if arg, ok := args[name]; ok {
			exprs = append(exprs, arg.Expr)
		}
		node := prefix + "var." + name
		for _, traversal := range append(exprTraversals(exprs), call.DependsOn...) {
			if ref, refDiags := addrs.ParseRef(traversal); !refDiags.HasErrors() {
				graph[node] = append(graph[node], referencedNodes(c.Parent, parentPrefix, ref.Subject)...)
			}
		}
	}
}

func exprTraversals(exprs []hcl.Expression) []hcl.Traversal {
	var out []hcl.Traversal
	for _, expr := range exprs {
		if expr != nil {
			out = append(out, expr.Variables()...)
		}
	}
	return out
}

// referencedNodes maps what a reference in module c names to graph nodes.
func referencedNodes(c *config.Config, prefix string, subject addrs.Referenceable) []string {
	switch s := subject.(type) {
	case addrs.Resource:
		return []string{prefix + s.String()}
	case addrs.ResourceInstance:
		return []string{prefix + s.Resource.String()}
	case addrs.LocalValue:
		return []string{prefix + "local." + s.Name}
	case addrs.InputVariable:
		return []string{prefix + "var." + s.Name}
	case addrs.ModuleCallInstanceOutput:
		return []string{prefix + "module." + s.Call.Call.Name + ".output." + s.Name}
	case addrs.ModuleCallInstance:
		return moduleOutputNodes(c, prefix, s.Call.Name)
	case addrs.ModuleCall:
		return moduleOutputNodes(c, prefix, s.Name)
	}
	return nil
}

func moduleOutputNodes(c *config.Config, prefix, call string) []string {
	child := c.Children[call]
	if child == nil {
		return nil
	}
	var out []string
	for name := range child.Module.Outputs {
		out = append(out, prefix+"module."+call+".output."+name)
	}
	return out
}

// bodyTraversals lists the references in a body and its nested blocks
// without the schema that decodes it, as a dependency graph needs.
func bodyTraversals(body hcl.Body) []hcl.Traversal {
	if body == nil {
		return nil
	}
	if native, ok := body.(*hclsyntax.Body); ok {
		var out []hcl.Traversal
		for _, attr := range native.Attributes {
			out = append(out, attr.Expr.Variables()...)
		}
		for _, block := range native.Blocks {
			out = append(out, bodyTraversals(block.Body)...)
		}
		return out
	}
	attrs, _ := body.JustAttributes()
	var out []hcl.Traversal
	for _, attr := range attrs {
		out = append(out, attr.Expr.Variables()...)
	}
	return out
}

// writeDOT prints the graph in the layout Terraform's graph command uses.
func writeDOT(w io.Writer, deps map[string][]string) {
	nodes := make([]string, 0, len(deps))
	for node := range deps {
		nodes = append(nodes, node)
	}
	slices.Sort(nodes)
	fmt.Fprint(w, "digraph G {\n  rankdir = \"RL\";\n  node [shape = rect, fontname = \"sans-serif\"];\n")
	for _, node := range nodes {
		fmt.Fprintf(w, "  %q [label=%q];\n", node, node)
	}
	for _, node := range nodes {
		for _, dep := range deps[node] {
			fmt.Fprintf(w, "  %q -> %q;\n", node, dep)
		}
	}
	fmt.Fprint(w, "}\n")
}
