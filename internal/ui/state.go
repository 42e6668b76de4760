package ui

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
)

// StateOptions tailor how a state is shown.
type StateOptions struct {
	// Color adds ANSI colour codes (see ColorEnabled).
	Color bool
	// ShowSensitive shows sensitive values instead of hiding them.
	ShowSensitive bool
}

// emptyStateMessage is what a state with nothing in it shows.
const emptyStateMessage = "The state file is empty. No resources are represented.\n"

// RenderState writes the state as `terraform show` does: every resource
// instance object as the resource block that would create it, module by
// module (the root first, then each child module depth-first in address
// order), then the root module's output values. Values are drawn by the
// plan renderer with nothing changing and no action symbols, so a state
// and a plan show a value the same way. It writes once, when the whole
// rendering is ready. An object it cannot decode (its provider's schema
// is missing or does not match) is left out and reported as a warning
// naming the instance; everything else is still shown.
func RenderState(w io.Writer, state *states.State, schemas *providers.Schemas, opts StateOptions) diags.Diagnostics {
	r := &stateRenderer{schemas: schemas, opts: renderOpts{pal: palette{enabled: opts.Color}, showUnchanged: true, hideSymbols: true, showSensitive: opts.ShowSensitive}}
	if state == nil {
		state = states.NewState()
	}
	modules := stateObjectsByModule(state)
	if len(modules) == 0 && len(state.Outputs) == 0 {
		r.out.WriteString(emptyStateMessage)
	} else {
		r.renderModules(modules)
		r.renderOutputs(state.Outputs)
	}
	if _, err := io.WriteString(w, r.out.String()); err != nil {
		r.diags = append(r.diags, diags.Errorf("Cannot write the state", "Writing the rendered state failed: %s.", err))
	}
	return r.diags
}

// stateRenderer holds one rendering's state.
type stateRenderer struct {
	schemas *providers.Schemas
	opts    renderOpts
	out     strings.Builder
	diags   diags.Diagnostics
}

// stateObject is one stored object of a resource instance: its current
// object or one of its deposed ones.
type stateObject struct {
	addr       addrs.AbsResourceInstance
	provider   addrs.Provider
	deposedKey addrs.DeposedKey // empty for the current object
	src        *states.ResourceInstanceObjectSrc
}

// moduleObjects are the objects of one module instance, in display order.
type moduleObjects struct {
	module  addrs.ModuleInstance
	objects []stateObject
}

// stateObjectsByModule lists the state's objects grouped by module
// instance, modules in depth-first address order; within a module,
// resources in state order, each instance's current object before its
// deposed objects.
func stateObjectsByModule(state *states.State) []moduleObjects {
	var modules []moduleObjects
	for _, res := range state.SortedResources() {
		var objects []stateObject
		for _, key := range res.SortedInstanceKeys() {
			inst := res.Instances[key]
			addr := res.Addr.Instance(key)
			if inst.Current != nil {
				objects = append(objects, stateObject{addr: addr, provider: res.ProviderConfig.Provider, src: inst.Current})
			}
			for _, deposed := range inst.SortedDeposedKeys() {
				objects = append(objects, stateObject{addr: addr, provider: res.ProviderConfig.Provider, deposedKey: deposed, src: inst.Deposed[deposed]})
			}
		}
		if len(objects) == 0 {
			continue
		}
		if n := len(modules); n > 0 && modules[n-1].module.Equal(res.Addr.Module) {
			modules[n-1].objects = append(modules[n-1].objects, objects...)
			continue
		}
		modules = append(modules, moduleObjects{module: res.Addr.Module, objects: objects})
	}
	// SortedResources orders modules by their whole address string, which
	// puts module.a-b before module.a's children; Terraform walks the
	// module tree, ordering siblings by address.
	slices.SortStableFunc(modules, func(a, b moduleObjects) int { return compareModuleTree(a.module, b.module) })
	return modules
}

// compareModuleTree orders module instances as a depth-first walk of the
// module tree visits them, siblings in address order.
func compareModuleTree(a, b addrs.ModuleInstance) int {
	for i := range min(len(a), len(b)) {
		if c := cmp.Compare(a[i].String(), b[i].String()); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// renderModules writes every module's objects. Objects are separated by a
// blank line, and each module after the first by one more.
func (r *stateRenderer) renderModules(modules []moduleObjects) {
	first := true
	for _, module := range modules {
		if !first {
			r.out.WriteString("\n")
		}
		for _, object := range module.objects {
			text, ok := r.renderObject(object)
			if !ok {
				continue
			}
			if !first {
				r.out.WriteString("\n")
			}
			first = false
			r.out.WriteString(text + "\n")
		}
	}
}

// renderObject renders one object: the "# address:" comment, annotated
// when the object is tainted or deposed, then the resource block.
func (r *stateRenderer) renderObject(object stateObject) (string, bool) {
	resource := object.addr.Resource.Resource
	isData := resource.Mode == addrs.DataResourceMode
	resSchema, ok := r.schemas.ResourceType(object.provider, isData, resource.Type)
	if !ok {
		r.warn(object, "Cannot show a resource instance",
			fmt.Sprintf("Provider %s has no schema for resource type %q, so %s is left out. Run \"terrane init\" to install the providers the state was written with.",
				object.provider, resource.Type, object.name()))
		return "", false
	}
	decoded, err := object.src.Decode(resSchema.Block.ImpliedType(), cty.NilType)
	if err != nil {
		r.warn(object, "Cannot show a resource instance",
			fmt.Sprintf("%s could not be read with the current schema of provider %s, so it is left out: %s. Run \"terrane refresh\" so that the provider upgrades the stored object.",
				object.name(), object.provider, err))
		return "", false
	}
	var comment string
	switch {
	case object.deposedKey != addrs.NotDeposed:
		comment = fmt.Sprintf("# %s: (deposed object %s)", object.addr, object.deposedKey)
	case decoded.Status == states.ObjectTainted:
		comment = fmt.Sprintf("# %s: (tainted)", object.addr)
	default:
		comment = fmt.Sprintf("# %s:", object.addr)
	}
	keyword := "resource"
	if isData {
		keyword = "data"
	}
	node := diffBlock(change_(decoded.Value, decoded.Value, &diffContext{}), resSchema.Block)
	return fmt.Sprintf("%s\n%s %q %q %s", comment, keyword, resource.Type, resource.Name, node.render(0, r.opts)), true
}

// name is how a diagnostic names the object.
func (o stateObject) name() string {
	if o.deposedKey != addrs.NotDeposed {
		return fmt.Sprintf("%s (deposed object %s)", o.addr, o.deposedKey)
	}
	return o.addr.String()
}

func (r *stateRenderer) warn(object stateObject, summary, detail string) {
	r.diags = append(r.diags, diags.Diagnostic{Severity: diags.Warning, Summary: summary, Detail: detail, Address: object.addr.String()})
}

// renderOutputs writes the "Outputs:" section: each root output as
// "name = value", in name order, drawn with its own type; sensitive ones
// hidden.
func (r *stateRenderer) renderOutputs(outputs map[string]*states.OutputValue) {
	if len(outputs) == 0 {
		return
	}
	r.out.WriteString("\n\nOutputs:\n\n")
	names := make([]string, 0, len(outputs))
	for name := range outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		output := outputs[name]
		fmt.Fprintf(&r.out, "%s = %s\n", name, outputNode(output).render(0, r.opts))
	}
}

// outputNode diffs an output value against itself.
func outputNode(output *states.OutputValue) diffNode {
	c := change_(output.Value, output.Value, &diffContext{})
	c.allRelevant = true
	c.sensitive = output.Sensitive
	if output.Value == cty.NilVal {
		return diffDynamic(c)
	}
	return diffType(c, output.Value.Type())
}
