package ui

import (
	"bufio"
	"io"
	"sort"
	"strings"

	"github.com/mitchellh/go-wordwrap"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
)

// PlanOptions tailor how a plan is shown.
type PlanOptions struct {
	// Color adds ANSI colour codes (see ColorEnabled).
	Color bool
	// Width is the terminal width prose paragraphs are wrapped to; zero
	// means 78 columns, the width used when output is not a terminal.
	Width int
	// ShowSensitive shows sensitive values instead of hiding them.
	ShowSensitive bool
}

// defaultWidth is the width prose is wrapped to when output is not a
// terminal.
const defaultWidth = 78

// productName is how the renderings name the program.
const productName = "Terrane"

// RenderPlan writes the plan as a person reads it: the changes made outside
// Terrane that matter to the plan, the symbols legend, one diff per changed
// resource instance, the "Plan: …" summary and the output changes — or the
// "No changes." message when there is nothing to do. A change it cannot
// decode (its provider's schema is missing or does not match) is left out
// and reported as an error naming the instance; everything else is still
// shown.
//
// Resource changes are decoded, diffed and written one at a time, and
// changes that do nothing are never decoded: a plan of 100,000 deletions,
// or of one change among 100,000 unchanged instances, needs the memory of
// one diff, not of the whole rendering.
func RenderPlan(w io.Writer, plan *plans.Plan, schemas *providers.Schemas, opts PlanOptions) diags.Diagnostics {
	out := bufio.NewWriterSize(w, 64<<10)
	r := &planRenderer{plan: plan, schemas: schemas, pal: palette{enabled: opts.Color}, width: opts.Width, out: out, showSensitive: opts.ShowSensitive}
	if r.width <= 0 {
		r.width = defaultWidth
	}
	r.prepare()
	r.render()
	if err := out.Flush(); err != nil {
		r.diags = append(r.diags, diags.Errorf("Cannot write the plan", "Writing the rendered plan failed: %s.", err))
	}
	return r.diags
}

// planRenderer holds one rendering's state.
type planRenderer struct {
	plan    *plans.Plan
	schemas *providers.Schemas
	pal     palette
	width   int
	// showSensitive shows sensitive values (-show-sensitive).
	showSensitive bool

	// changes are the resource changes the plan lists, in order, still
	// encoded; see shownChange.
	changes []*plans.ResourceInstanceChangeSrc
	drift   []*plans.ResourceInstanceChangeSrc
	outputs []outputDiff
	// relevantPaths are the plan's relevant attributes by instance
	// address, looked up once per drifted instance.
	relevantPaths map[string][]cty.Path

	// out buffers what is written; a write error sticks and is reported
	// when it is flushed.
	out   *bufio.Writer
	diags diags.Diagnostics
}

// resourceDiff is one resource instance change, diffed.
type resourceDiff struct {
	header plans.ResourceInstanceChangeHeader
	change *plans.ResourceInstanceChange
	node   diffNode
}

func (d resourceDiff) action() plans.Action { return d.change.Action }

func (d resourceDiff) isData() bool {
	return d.header.Addr.Resource.Resource.Mode == addrs.DataResourceMode
}

// outputDiff is one output change, diffed.
type outputDiff struct {
	name string
	node diffNode
}

// prepare diffs the outputs and picks the resource changes to list; those
// and the drift are diffed as they are written.
func (r *planRenderer) prepare() {
	for _, src := range r.plan.Changes.Resources {
		if shownChange(src) {
			r.changes = append(r.changes, src)
		}
	}
	r.changes = sortedChanges(r.changes)
	r.drift = sortedChanges(r.plan.DriftedResources)
	r.relevantPaths = map[string][]cty.Path{}
	for _, attr := range r.plan.RelevantAttributes {
		key := attr.Resource.String()
		r.relevantPaths[key] = append(r.relevantPaths[key], attr.Attr)
	}
	for _, src := range r.plan.Changes.Outputs {
		if !src.Addr.Module.IsRoot() {
			continue // only the root module's outputs are the user's to see
		}
		change, err := src.Decode()
		if err != nil {
			r.diags = append(r.diags, undecodable(src.Addr.String(), err))
			continue
		}
		r.outputs = append(r.outputs, outputDiff{name: src.Addr.OutputValue.Name, node: diffOutput(change)})
	}
	sort.Slice(r.outputs, func(i, j int) bool { return r.outputs[i].name < r.outputs[j].name })
}

func sortedChanges(changes []*plans.ResourceInstanceChangeSrc) []*plans.ResourceInstanceChangeSrc {
	sorted := make([]*plans.ResourceInstanceChangeSrc, len(changes))
	copy(sorted, changes)
	// OpenTofu's order: root module first, data before managed, count
	// instances numerically (see addrs.AbsResourceInstance.Less).
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Addr, sorted[j].Addr
		if !a.Equal(b) {
			return a.Less(b)
		}
		return sorted[i].DeposedKey < sorted[j].DeposedKey
	})
	return sorted
}

func undecodable(address string, err error) diags.Diagnostic {
	d := diags.Errorf("Cannot show a planned change",
		"The change to %s could not be read, so the plan shown leaves it out: %s. Make a new plan with the providers this configuration uses now.", address, err)
	d.Address = address
	return d
}

// diffResource decodes a resource instance change with its resource type's
// schema and diffs it. Drift is shown only where it may matter to the plan,
// unless the plan is refresh-only, where drift is the whole point.
func (r *planRenderer) diffResource(src *plans.ResourceInstanceChangeSrc, drift bool) (resourceDiff, bool) {
	addr := src.Addr
	filterDrift := drift && r.plan.UIMode != plans.RefreshOnlyMode
	if filterDrift && len(r.relevantPaths[addr.String()]) == 0 {
		// As Terraform does, an object nothing in the plan reads is not
		// shown, whatever happened to it: not even decoded.
		return resourceDiff{}, false
	}
	provider := src.ProviderAddr.Config.Provider
	isData := addr.Resource.Resource.Mode == addrs.DataResourceMode
	block := r.lookupBlock(provider, isData, addr.Resource.Resource.Type)
	if block == nil {
		d := diags.Errorf("Cannot show a planned change",
			"The plan changes %s, but provider %s has no schema for resource type %q, so the change cannot be shown. Run \"terrane init\" to install the providers this configuration needs, then make a new plan.",
			src.ObjectName(), provider, addr.Resource.Resource.Type)
		d.Address = src.ObjectName()
		r.diags = append(r.diags, d)
		return resourceDiff{}, false
	}
	types := plans.ObjectTypes{Value: block.ImpliedType(), Identity: cty.NilType}
	if identity, ok := r.schemas.Identity(provider, addr.Resource.Resource.Type); ok && !isData {
		types.Identity = identity.ImpliedType()
	}
	change, err := src.Decode(types)
	if err != nil {
		r.diags = append(r.diags, undecodable(src.ObjectName(), err))
		return resourceDiff{}, false
	}
	ctx := &diffContext{replacePaths: src.RequiredReplace}
	// A deleted object that something reads matters whole; otherwise drift
	// outside a refresh-only plan shows only the attributes the plan's
	// changes depend on.
	if filterDrift && change.Action != plans.Delete {
		ctx.filtered = true
		ctx.relevantPaths = r.relevantPaths[addr.String()]
	}
	c := change_(change.Before, change.After, ctx)
	return resourceDiff{header: src.ResourceInstanceChangeHeader, change: change, node: diffBlock(c, block)}, true
}

// change_ starts a diff of a whole object.
func change_(before, after cty.Value, ctx *diffContext) change {
	return change{before: implicit(before), after: implicit(after), ctx: ctx}
}

// lookupBlock finds a resource type's schema, or nil.
func (r *planRenderer) lookupBlock(provider addrs.Provider, isData bool, typeName string) *schema.Block {
	if r.schemas == nil {
		return nil
	}
	s, ok := r.schemas.ResourceType(provider, isData, typeName)
	if !ok {
		return nil
	}
	return s.Block
}

// diffOutput diffs an output's change. Declared-sensitive outputs are
// hidden whole.
func diffOutput(change *plans.OutputChange) diffNode {
	c := change_(change.Before, change.After, &diffContext{})
	c.allRelevant = true
	c.sensitive = change.Sensitive
	return diffDynamic(c)
}

// wrap word-wraps prose to the renderer's width; see WordWrap.
func (r *planRenderer) wrap(text string) string {
	return WordWrap(text, r.width)
}

// WordWrap wraps each line of text to fit width columns, keeping the line
// breaks the text already has. As in OpenTofu's format.WordWrap, a line
// that starts with a space (a command to run, a path) is left whole.
func WordWrap(text string, width int) string {
	if width <= 1 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, " ") {
			lines[i] = wordwrap.WrapString(line, uint(width-1))
		}
	}
	return strings.Join(lines, "\n")
}

// HorizontalRule is the rule OpenTofu draws between parts of an
// operation's output: a newline and width-1 box-drawing dashes, in dark
// gray when colour is on.
func HorizontalRule(width int, color bool) string {
	if width <= 1 {
		return "\n"
	}
	pal := palette{enabled: color}
	return "\n" + pal.darkGray(strings.Repeat("─", width-1))
}

// horizontalRule separates the drift report from the plan proper.
func (r *planRenderer) horizontalRule() string {
	return HorizontalRule(r.width, r.pal.enabled) + "\n"
}
