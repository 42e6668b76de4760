package plans

import (
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/value"
)

// Plan is everything a plan proposes and everything apply needs to carry it
// out exactly as proposed.
type Plan struct {
	// UIMode is the mode the plan was made in; only rendering uses it.
	UIMode Mode

	// VariableValues are the root module's input variables as set when
	// planning, each encoded with its own type (cty.DynamicPseudoType).
	// ApplyTimeVariables names the ones that must be set again on apply.
	VariableValues     map[string]value.Dynamic
	ApplyTimeVariables []string

	// Changes holds the proposed changes; DriftedResources the changes made
	// outside Terrane since the previous run, found by refreshing; Deferred
	// the changes left for a later run.
	Changes          Changes
	DriftedResources []*ResourceInstanceChangeSrc
	Deferred         []*DeferredResourceInstanceChangeSrc
	// RelevantAttributes are the drifted attributes that may have
	// contributed to the proposed changes.
	RelevantAttributes []ResourceAttr

	Checks []CheckResult

	// TargetAddrs and ExcludeAddrs are the -target and -exclude addresses,
	// as written on the command line; ForceReplaceAddrs the -replace ones.
	// Apply must use the same sets to reach the same conclusions.
	TargetAddrs       []string
	ExcludeAddrs      []string
	ForceReplaceAddrs []addrs.AbsResourceInstance

	// Workspace and PriorRecords are the state the plan was made from: the
	// record of every address it read, with its Generation, so apply can
	// refuse an address whose record changed since.
	Workspace    string
	PriorRecords []PriorRecord
	// PriorRecordData gives the content of a prior record whose Data is
	// nil: a plan made in this process encodes its records' content only
	// when a plan file needs it, since nothing else does. Nil for plans
	// read from a file, whose records carry their Data.
	PriorRecordData func(name string) (*anypb.Any, error)

	// Timestamp is when planning started: what plantimestamp() returned.
	Timestamp time.Time
	// EngineVersion is the version of the program that made the plan.
	EngineVersion string

	// Errored is true when planning stopped on an error: the plan is shown
	// so the user can see how far it got, but it cannot be applied.
	Errored bool
	// Applyable is true when applying the plan makes sense: it is not
	// errored and either changes something or must update state.
	Applyable bool
	// Complete is false when some changes were deferred.
	Complete bool

	// FunctionResults are hashes of provider-defined function calls and
	// their results, checked again on apply.
	FunctionResults []FunctionResult
}

// CanApply reports whether the plan may be applied.
func (p *Plan) CanApply() bool { return p.Applyable && !p.Errored }

// Changes are the proposed changes of a plan.
type Changes struct {
	Resources []*ResourceInstanceChangeSrc
	Outputs   []*OutputChangeSrc
}

// IsEmpty reports whether no resource instance or output would change.
func (c *Changes) IsEmpty() bool {
	for _, change := range c.Resources {
		if change.Action != NoOp || change.Moved() {
			return false
		}
	}
	for _, change := range c.Outputs {
		if change.Action != NoOp {
			return false
		}
	}
	return true
}

// ResourceInstance returns the change to addr's current object, or nil when
// the plan has none.
func (c *Changes) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstanceChangeSrc {
	return c.ResourceInstanceDeposed(addr, addrs.NotDeposed)
}

// ResourceInstanceDeposed returns the change to addr's object with the given
// deposed key, or nil when the plan has none.
func (c *Changes) ResourceInstanceDeposed(addr addrs.AbsResourceInstance, key addrs.DeposedKey) *ResourceInstanceChangeSrc {
	want := addr.String()
	for _, change := range c.Resources {
		if change.DeposedKey == key && change.Addr.String() == want {
			return change
		}
	}
	return nil
}

// Output returns the change to the named root module output, or nil.
func (c *Changes) Output(name string) *OutputChangeSrc {
	for _, change := range c.Outputs {
		if change.Addr.Module.IsRoot() && change.Addr.OutputValue.Name == name {
			return change
		}
	}
	return nil
}

// EncodeVariableValue encodes an input variable's value for
// Plan.VariableValues. Sensitive marks are dropped: the configuration
// declares which variables are sensitive, and apply re-reads it.
func EncodeVariableValue(v cty.Value) (value.Dynamic, error) {
	if err := refuseEphemeral(v); err != nil {
		return value.Dynamic{}, err
	}
	return value.Encode(v, cty.DynamicPseudoType)
}

// VariableValue decodes the value the named variable had when planning.
func (p *Plan) VariableValue(name string) (cty.Value, error) {
	encoded, ok := p.VariableValues[name]
	if !ok {
		return cty.NilVal, fmt.Errorf("the plan has no value for variable %q", name)
	}
	v, err := value.Decode(encoded, cty.DynamicPseudoType)
	if err != nil {
		return cty.NilVal, fmt.Errorf("the plan's value for variable %q: %w", name, err)
	}
	return v, nil
}

// ResourceAttr names one attribute of a resource instance.
type ResourceAttr struct {
	Resource addrs.AbsResourceInstance
	Attr     cty.Path
}

// CheckStatus is the outcome of the checks of one object.
type CheckStatus int

// The check statuses. Unknown means the checks could not be evaluated
// during planning (their inputs are known only after apply).
const (
	CheckUnknown CheckStatus = iota
	CheckPass
	CheckFail
	CheckError
)

func (s CheckStatus) String() string {
	switch s {
	case CheckUnknown:
		return "unknown"
	case CheckPass:
		return "pass"
	case CheckFail:
		return "fail"
	case CheckError:
		return "error"
	default:
		return fmt.Sprintf("CheckStatus(%d)", int(s))
	}
}

// CheckableKind is the kind of configuration object that declares checks.
type CheckableKind int

// The kinds of checkable objects.
const (
	CheckableUnspecified CheckableKind = iota
	CheckableResource
	CheckableOutputValue
	CheckableCheck
	CheckableInputVariable
)

// CheckResult is the aggregate outcome of the checks (preconditions,
// postconditions, check blocks, variable validations) one configuration
// object declares, and the outcome for each of its instances.
type CheckResult struct {
	Kind       CheckableKind
	ConfigAddr string
	Status     CheckStatus
	Objects    []CheckObjectResult
}

// CheckObjectResult is the outcome of the checks of one instance.
type CheckObjectResult struct {
	ObjectAddr      string
	Status          CheckStatus
	FailureMessages []string
}

// FunctionResult is the hash of one provider-defined function call and of
// its result.
type FunctionResult struct {
	Key, Result []byte
}

// PriorRecord is a state record as the plan read it.
type PriorRecord struct {
	// Name is the record name (a resource instance address for resource
	// instance records) and Kind its type kind.
	Name, Kind string
	// Uid, Generation and Version are as the store reported them.
	Uid, Generation, Version string
	// Data is the record's content as read; nil until needed in a plan made
	// in this process (see Plan.PriorRecordContent).
	Data *anypb.Any
	// PlannedDependencies, when DependenciesPlanned is set, are the
	// resources the plan's refreshed state says the instance's current
	// object depends on, as OpenTofu's refresh records them: the
	// configuration's dependencies merged with the recorded ones, or the
	// configuration's alone when the plan leaves the object unchanged.
	// Sorted addresses.
	PlannedDependencies []string
	DependenciesPlanned bool
}

// PriorRecordContent is the content of a record the plan read.
func (p *Plan) PriorRecordContent(record PriorRecord) (*anypb.Any, error) {
	if record.Data != nil || p.PriorRecordData == nil {
		return record.Data, nil
	}
	data, err := p.PriorRecordData(record.Name)
	if err != nil {
		return nil, fmt.Errorf("encoding the prior record of %s: %w", record.Name, err)
	}
	return data, nil
}
