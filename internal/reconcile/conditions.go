package reconcile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/proto/pbresource"
)

// StatusKey is the status key the reconciler owns on every record it
// writes status to (seed 001: one key per controller).
const StatusKey = "terrane.reconcile"

// Condition types of a resource instance record.
const (
	ConditionInSync  = "InSync"
	ConditionDrifted = "Drifted"
	ConditionMissing = "Missing"
	ConditionFailed  = "Failed"
)

// InstanceConditionTypes are the condition types every instance status
// holds, in order.
var InstanceConditionTypes = []string{ConditionInSync, ConditionDrifted, ConditionMissing, ConditionFailed}

// Reasons of instance conditions.
const (
	ReasonRefreshed       = "Refreshed"
	ReasonChangedOutside  = "ChangedOutsideTerrane"
	ReasonObjectGone      = "ObjectGone"
	ReasonRefreshFailed   = "RefreshFailed"
	ReasonProviderTimeout = "ProviderTimeout"
	ReasonNotRefreshed    = "NotRefreshed"
)

// Outcome is what one refresh found for one resource instance.
type Outcome struct {
	// Kind is one of the instance condition types.
	Kind string
	// Reason and Message explain it (seed 001's reason and message).
	Reason, Message string
	// DriftedPaths are the attributes that differ, for Drifted, as a user
	// writes them (content, tags["env"]).
	DriftedPaths []string
}

// Status returns the status that records o for observedGeneration.
func (o Outcome) Status(observedGeneration string) *pbresource.Status {
	st := &pbresource.Status{ObservedGeneration: observedGeneration}
	otherState := pbresource.Condition_STATE_FALSE
	if o.Kind == ConditionFailed {
		// A failed refresh says nothing about the object.
		otherState = pbresource.Condition_STATE_UNKNOWN
	}
	for _, kind := range InstanceConditionTypes {
		c := &pbresource.Condition{Type: kind, State: otherState, Reason: o.Reason}
		if kind == o.Kind {
			c.State, c.Message = pbresource.Condition_STATE_TRUE, o.Message
		}
		st.Conditions = append(st.Conditions, c)
	}
	return st
}

// TrueCondition returns the condition of st that is STATE_TRUE, or nil.
func TrueCondition(st *pbresource.Status) *pbresource.Condition {
	for _, c := range st.GetConditions() {
		if c.GetState() == pbresource.Condition_STATE_TRUE {
			return c
		}
	}
	return nil
}

func inSync() Outcome {
	return Outcome{Kind: ConditionInSync, Reason: ReasonRefreshed, Message: "The object matches its record."}
}

func missing() Outcome {
	return Outcome{Kind: ConditionMissing, Reason: ReasonObjectGone,
		Message: "The provider reports that the object no longer exists. Apply to create it again, or remove it from the configuration."}
}

func drifted(paths []string) Outcome {
	return Outcome{Kind: ConditionDrifted, Reason: ReasonChangedOutside, DriftedPaths: paths,
		Message: fmt.Sprintf("Changed outside Terrane: %s. Apply to undo the change, or apply -refresh-only to accept it.", strings.Join(paths, ", "))}
}

func failed(reason, message string) Outcome {
	return Outcome{Kind: ConditionFailed, Reason: reason, Message: message}
}

// outcomeOf compares an object as recorded with what the provider read.
func outcomeOf(prior, refreshed cty.Value) Outcome {
	if refreshed == cty.NilVal || refreshed.IsNull() {
		return missing()
	}
	prior, _ = prior.UnmarkDeep()
	refreshed, _ = refreshed.UnmarkDeep()
	paths := changedPaths(nil, prior, refreshed)
	if len(paths) == 0 {
		return inSync()
	}
	names := make([]string, len(paths))
	for i, path := range paths {
		names[i] = strings.TrimPrefix(value.FormatPath(path), ".")
	}
	sort.Strings(names)
	return drifted(names)
}

// changedPaths lists where after differs from before: an attribute, map
// element or list element that differs is followed down; a set, or a
// collection whose length changed, differs as a whole. Only paths are
// kept, never values, so sensitive values cannot leak into a message.
func changedPaths(path cty.Path, before, after cty.Value) []cty.Path {
	if before.RawEquals(after) {
		return nil
	}
	whole := []cty.Path{path.Copy()}
	if before.IsNull() || after.IsNull() || !before.IsKnown() || !after.IsKnown() || !before.Type().Equals(after.Type()) {
		return whole
	}
	ty := before.Type()
	switch {
	case ty.IsObjectType():
		var out []cty.Path
		for name := range ty.AttributeTypes() {
			out = append(out, changedPaths(path.GetAttr(name), before.GetAttr(name), after.GetAttr(name))...)
		}
		return nonEmpty(out, whole)
	case ty.IsMapType():
		var out []cty.Path
		keys := map[string]bool{}
		for it := before.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			keys[k.AsString()] = true
		}
		for it := after.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			keys[k.AsString()] = true
		}
		for k := range keys {
			key := cty.StringVal(k)
			b, a := elementOrNull(before, key), elementOrNull(after, key)
			out = append(out, changedPaths(path.Index(key), b, a)...)
		}
		return nonEmpty(out, whole)
	case (ty.IsListType() || ty.IsTupleType()) && before.LengthInt() == after.LengthInt():
		var out []cty.Path
		for i := 0; i < before.LengthInt(); i++ {
			key := cty.NumberIntVal(int64(i))
			out = append(out, changedPaths(path.Index(key), before.Index(key), after.Index(key))...)
		}
		return nonEmpty(out, whole)
	}
	return whole
}

func elementOrNull(m cty.Value, key cty.Value) cty.Value {
	if m.HasIndex(key).True() {
		return m.Index(key)
	}
	return cty.NullVal(m.Type().ElementType())
}

func nonEmpty(paths, fallback []cty.Path) []cty.Path {
	if len(paths) == 0 {
		return fallback
	}
	return paths
}
