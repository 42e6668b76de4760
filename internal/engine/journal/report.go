package journal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/value"
)

// maxSummaryAttrs bounds how many attributes a planned-value summary lists,
// so a report about a large object stays readable.
const maxSummaryAttrs = 12

// createDiagnostic reports an interrupted create: the object may exist, and
// only the user can say whether it does. The protocol gives no way to find
// an object whose create answer was lost (docs/architecture.md, "Nothing is silently
// forgotten").
func (r *resolver) createDiagnostic(intent *states.Intent) diags.Diagnostic {
	addr := r.entry.Addr
	var block *schema.Block
	if r.opts.Reader != nil {
		block = r.opts.Reader.ResourceSchema(r.entry.ProviderConfig.Provider, addr.Resource.Resource.Type)
	}
	d := diags.Warnf("Create may have happened",
		"%s started creating %s at %s and stopped before recording the answer, so the object may exist without Terrane knowing it.\n\n"+
			"Planned value:\n%s\n\n"+
			"Terrane leaves %s alone until you say what happened:\n"+
			"  - if the object exists, adopt it with: terrane import %s ID\n"+
			"  - if it does not, forget the attempt with: terrane state rm %s",
		diags.Capitalize(describeRun(intent)), addr, formatTime(intent.StartedAt),
		plannedSummary(intent, block), addr, ShellQuote(addr.String()), ShellQuote(addr.String()))
	d.Address = addr.String()
	return d
}

// claimDiagnostic says that another run is working on addr.
func claimDiagnostic(addr addrs.AbsResourceInstance, intent *states.Intent) diags.Diagnostic {
	d := diags.Warnf("Another run is changing "+addr.String(),
		"%s began %s of %s at %s and is still running, so this run leaves %s alone. "+
			"Plan again once that run has finished; if it was stopped for good, its claim lapses once its process is gone (same host) or after %s, or \"terrane force-unlock %s\" releases it now.",
		diags.Capitalize(describeRun(intent)), withArticle(operationNoun(intent.Operation)), addr, formatTime(intent.StartedAt), addr, DefaultClaimTTL, intent.RunID)
	d.Address = addr.String()
	return d
}

// unreadDiagnostic says why an interrupted operation could not be resolved.
func unreadDiagnostic(addr addrs.AbsResourceInstance, intent *states.Intent, cause diags.Diagnostics) diags.Diagnostic {
	var reasons []string
	for _, c := range cause {
		if c.Severity == diags.Error {
			reasons = append(reasons, strings.TrimSpace(c.Summary+": "+c.Detail))
		}
	}
	d := diags.Errorf("Cannot resolve the interrupted "+operationNoun(intent.Operation)+" of "+addr.String(),
		"%s stopped during a %s of %s at %s. Reading the object back to learn its outcome failed:\n  %s\n\n"+
			"This run leaves %s alone. Fix the cause and run again; the object is read back then.",
		diags.Capitalize(describeRun(intent)), operationNoun(intent.Operation), addr, formatTime(intent.StartedAt),
		strings.Join(reasons, "\n  "), addr)
	d.Address = addr.String()
	return d
}

// withArticle puts "a" or "an" before a noun.
func withArticle(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

func operationNoun(op states.IntentOperation) string {
	switch op {
	case states.IntentCreate:
		return "create"
	case states.IntentUpdate:
		return "update"
	case states.IntentDelete:
		return "delete"
	case states.IntentReplaceCreateBeforeDestroy, states.IntentReplaceDestroyBeforeCreate:
		return "replacement"
	case states.IntentImport:
		return "import"
	case states.IntentForget:
		return "forget"
	}
	return "change"
}

// plannedSummary lists the planned value's top-level attributes, one per
// line. Sensitive attributes are hidden; without the schema, which alone
// says what is sensitive, only attribute names and kinds are shown.
func plannedSummary(intent *states.Intent, block *schema.Block) string {
	if len(intent.PlannedMsgpack) == 0 || intent.PlannedType == cty.NilType {
		return "  (not recorded)"
	}
	planned, err := value.DecodeMsgpack(intent.PlannedMsgpack, intent.PlannedType)
	if err != nil || !planned.Type().IsObjectType() || planned.IsNull() || !planned.IsKnown() {
		return "  (not readable)"
	}
	var sensitive []cty.Path
	if block != nil {
		sensitive = block.SensitivePaths(planned)
	}
	attrs := planned.AsValueMap()
	names := make([]string, 0, len(attrs))
	for name, v := range attrs {
		if !v.IsNull() {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var lines []string
	for i, name := range names {
		if i == maxSummaryAttrs {
			lines = append(lines, fmt.Sprintf("  (%d more attributes)", len(names)-i))
			break
		}
		lines = append(lines, fmt.Sprintf("  %s = %s", name, summarizeAttr(attrs[name], name, sensitive, block != nil)))
	}
	if len(lines) == 0 {
		return "  (no attributes set)"
	}
	return strings.Join(lines, "\n")
}

func summarizeAttr(v cty.Value, name string, sensitive []cty.Path, schemaKnown bool) string {
	for _, path := range sensitive {
		if step, ok := firstAttr(path); ok && step.Name == name {
			return "(sensitive value)"
		}
	}
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case !schemaKnown:
		return "(" + v.Type().FriendlyName() + ", not shown: the schema was not available to tell whether it is sensitive)"
	case v.Type() == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		return fmt.Sprintf("%t", v.True())
	case v.CanIterateElements():
		return fmt.Sprintf("(%s, %d elements)", v.Type().FriendlyName(), v.LengthInt())
	}
	return "(" + v.Type().FriendlyName() + ")"
}

func firstAttr(path cty.Path) (cty.GetAttrStep, bool) {
	if len(path) == 0 {
		return cty.GetAttrStep{}, false
	}
	step, ok := path[0].(cty.GetAttrStep)
	return step, ok
}

// ShellQuote quotes an address for a POSIX shell when it has characters the
// shell would interpret, such as the brackets and quotes of instance keys.
func ShellQuote(s string) string {
	if !strings.ContainsAny(s, "[]\"' $*?") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
