package states

import (
	"slices"
	"time"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/addrs"
)

// IntentOperation is what an open intent is about to do to a remote object.
type IntentOperation int

// The operations an intent can announce. They match the record's
// Operation enum one to one.
const (
	IntentCreate IntentOperation = iota + 1
	IntentUpdate
	IntentDelete
	IntentReplaceCreateBeforeDestroy
	IntentReplaceDestroyBeforeCreate
	IntentImport
	IntentForget
)

func (op IntentOperation) String() string {
	switch op {
	case IntentCreate:
		return "create"
	case IntentUpdate:
		return "update"
	case IntentDelete:
		return "delete"
	case IntentReplaceCreateBeforeDestroy:
		return "replace (create before destroy)"
	case IntentReplaceDestroyBeforeCreate:
		return "replace (destroy before create)"
	case IntentImport:
		return "import"
	case IntentForget:
		return "forget"
	default:
		return "unknown operation"
	}
}

// Intent announces a provider call that may create, replace or delete a
// remote object. It is made durable before the call and replaced by the
// call's result, so an intent still open after a run stopped says that call's
// outcome is unknown (docs/architecture.md, "Nothing is silently forgotten").
type Intent struct {
	Operation IntentOperation
	// PlannedMsgpack is the planned new value as msgpack of PlannedType; it
	// may contain unknown values, which JSON could not carry.
	PlannedMsgpack []byte
	PlannedType    cty.Type
	// RunID names the run holding the intent.
	RunID     string
	StartedAt time.Time
	// DeposedKey names the deposed object the operation targets, if any.
	DeposedKey addrs.DeposedKey
	// Holder describes the process making the call (host and pid).
	Holder string
}

// DeepCopy returns a copy of intent that shares no mutable memory with it.
func (intent *Intent) DeepCopy() *Intent {
	if intent == nil {
		return nil
	}
	out := *intent
	out.PlannedMsgpack = slices.Clone(intent.PlannedMsgpack)
	return &out
}

// PulumiObject holds what a Pulumi resource provider needs, beyond the
// object's outputs, to diff, update and delete it.
type PulumiObject struct {
	URN string
	// OldInputs are the inputs of the last successful create or update in
	// the Pulumi property encoding.
	OldInputs  *structpb.Struct
	RandomSeed []byte
	ID         string
}

func (p PulumiObject) deepCopy() PulumiObject {
	out := p
	if p.OldInputs != nil {
		out.OldInputs = proto.Clone(p.OldInputs).(*structpb.Struct)
	}
	out.RandomSeed = slices.Clone(p.RandomSeed)
	return out
}
