package plans

import "fmt"

// Action is what a plan proposes to do to one object.
type Action rune

// The actions. Replacement is two actions in one, ordered as named: the
// default destroys the old object first; create_before_destroy creates the
// new one first.
const (
	NoOp             Action = 0
	Create           Action = '+'
	Read             Action = '←'
	Update           Action = '~'
	DeleteThenCreate Action = '∓'
	CreateThenDelete Action = '±'
	Delete           Action = '-'
	// Forget removes the object from state without destroying it (a removed
	// block with destroy = false).
	Forget Action = '.'
	// CreateThenForget creates a new object and stops tracking the old one
	// without destroying it.
	CreateThenForget Action = '⇉'
	// ForgetThenCreate is OpenTofu's replacement of an object whose
	// resource says lifecycle destroy = false: the old object is left to
	// exist unmanaged and a new one is created.
	ForgetThenCreate Action = '⊘'
	// Open, Renew and Close are what a run does to an ephemeral resource
	// instance. They are reported to hooks as it happens and never appear
	// in a plan's changes: nothing about ephemeral resources is recorded.
	Open  Action = 'O'
	Renew Action = 'R'
	Close Action = 'C'
)

// String returns the action's name as the -json UI and "terrane show" print
// it: "no-op", "create", "read", "update", "delete", "forget" or the
// replacement pairs "delete-then-create" and "create-then-delete".
func (a Action) String() string {
	switch a {
	case NoOp:
		return "no-op"
	case Create:
		return "create"
	case Read:
		return "read"
	case Update:
		return "update"
	case DeleteThenCreate:
		return "delete-then-create"
	case CreateThenDelete:
		return "create-then-delete"
	case Delete:
		return "delete"
	case Forget:
		return "forget"
	case CreateThenForget:
		return "create-then-forget"
	case ForgetThenCreate:
		return "forget-then-create"
	case Open:
		return "open"
	case Renew:
		return "renew"
	case Close:
		return "close"
	default:
		return fmt.Sprintf("Action(%q)", rune(a))
	}
}

// IsReplace reports whether a replaces an object by a new one.
func (a Action) IsReplace() bool {
	return a == DeleteThenCreate || a == CreateThenDelete || a == CreateThenForget
}

// HasBefore reports whether a change with this action starts from an
// existing object, so its Before value is meaningful.
func (a Action) HasBefore() bool { return a != Create }

// Creates reports whether a creates a new object: a create or any kind of
// replacement, OpenTofu's forget-then-create included.
func (a Action) Creates() bool { return a == Create || a.IsReplace() || a == ForgetThenCreate }

// HasAfter reports whether a change with this action ends with an object,
// so its After value is meaningful.
func (a Action) HasAfter() bool { return a != Delete && a != Forget }

// ActionReason gives the user extra context for why an action was chosen.
// It is for display only: apply never decides anything from it.
type ActionReason rune

// The action reasons, as seed 003's ResourceInstanceActionReason lists them.
const (
	ReasonNone                    ActionReason = 0
	ReplaceBecauseTainted         ActionReason = 'T'
	ReplaceByRequest              ActionReason = 'R'
	ReplaceByTriggers             ActionReason = 'D'
	ReplaceBecauseCannotUpdate    ActionReason = 'F'
	DeleteBecauseNoResourceConfig ActionReason = 'N'
	DeleteBecauseWrongRepetition  ActionReason = 'W'
	DeleteBecauseCountIndex       ActionReason = 'C'
	DeleteBecauseEachKey          ActionReason = 'E'
	DeleteBecauseNoModule         ActionReason = 'M'
	DeleteBecauseNoMoveTarget     ActionReason = 'A'
	DeleteBecauseEnabledFalse     ActionReason = 'L'
	ReadBecauseConfigUnknown      ActionReason = '?'
	ReadBecauseDependencyPending  ActionReason = '!'
	ReadBecauseCheckNested        ActionReason = '#'
	// ForgotBecauseLifecycleDestroyInState and ...InConfig say why an
	// object is forgotten rather than destroyed: its resource said
	// lifecycle destroy = false when last applied, or says it now.
	ForgotBecauseLifecycleDestroyInState  ActionReason = 'X'
	ForgotBecauseLifecycleDestroyInConfig ActionReason = 'Y'
)

var actionReasonNames = map[ActionReason]string{
	ReasonNone:                            "",
	ReplaceBecauseTainted:                 "replace_because_tainted",
	ReplaceByRequest:                      "replace_by_request",
	ReplaceByTriggers:                     "replace_by_triggers",
	ReplaceBecauseCannotUpdate:            "replace_because_cannot_update",
	DeleteBecauseNoResourceConfig:         "delete_because_no_resource_config",
	DeleteBecauseWrongRepetition:          "delete_because_wrong_repetition",
	DeleteBecauseCountIndex:               "delete_because_count_index",
	DeleteBecauseEachKey:                  "delete_because_each_key",
	DeleteBecauseNoModule:                 "delete_because_no_module",
	DeleteBecauseNoMoveTarget:             "delete_because_no_move_target",
	DeleteBecauseEnabledFalse:             "delete_because_enabled_false",
	ReadBecauseConfigUnknown:              "read_because_config_unknown",
	ReadBecauseDependencyPending:          "read_because_dependency_pending",
	ReadBecauseCheckNested:                "read_because_check_nested",
	ForgotBecauseLifecycleDestroyInState:  "forgot_because_lifecycle_destroy_in_state",
	ForgotBecauseLifecycleDestroyInConfig: "forgot_because_lifecycle_destroy_in_config",
}

// String returns the reason as the -json output spells it
// ("replace_because_tainted"), or "" for ReasonNone.
func (r ActionReason) String() string {
	if name, ok := actionReasonNames[r]; ok {
		return name
	}
	return fmt.Sprintf("ActionReason(%q)", rune(r))
}

// Mode is the planning mode a plan was made in. It only tailors how the plan
// is shown; apply does the same whatever the mode.
type Mode rune

// The planning modes.
const (
	NormalMode      Mode = 0
	DestroyMode     Mode = 'D'
	RefreshOnlyMode Mode = 'R'
)

func (m Mode) String() string {
	switch m {
	case NormalMode:
		return "normal"
	case DestroyMode:
		return "destroy"
	case RefreshOnlyMode:
		return "refresh-only"
	default:
		return fmt.Sprintf("Mode(%q)", rune(m))
	}
}

// DeferredReason says why a change was left for a later run to plan.
type DeferredReason int

// The deferral reasons, as the plugin protocol's Deferred.Reason and the
// plan file's DeferredReason list them.
const (
	DeferredReasonInvalid DeferredReason = iota
	DeferredReasonInstanceCountUnknown
	DeferredReasonResourceConfigUnknown
	DeferredReasonProviderConfigUnknown
	DeferredReasonAbsentPrereq
	DeferredReasonDeferredPrereq
	DeferredReasonExcluded
	DeferredReasonNotIncluded
)

var deferredReasonNames = [...]string{
	"invalid", "instance_count_unknown", "resource_config_unknown", "provider_config_unknown",
	"absent_prereq", "deferred_prereq", "excluded", "not_included",
}

func (r DeferredReason) String() string {
	if r >= 0 && int(r) < len(deferredReasonNames) {
		return deferredReasonNames[r]
	}
	return fmt.Sprintf("DeferredReason(%d)", int(r))
}
