package resourceservice

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/proto/pbresource"
)

// TombstoneType is the type of the records Delete leaves behind: each is a
// promise to delete the deleted resource's owned resources, kept by the reaper.
var TombstoneType = &pbresource.Type{Group: "internal", GroupVersion: "v1", Kind: "Tombstone"}

// Registration describes a resource type the service accepts writes for.
type Registration struct {
	Type *pbresource.Type
	// Data, when set, is the message every resource's data must hold; writes
	// whose data is missing or of another message are rejected.
	Data proto.Message
	// Sealed, when set, is a message the data may hold instead of Data:
	// data a client encrypted before writing it (state encryption), which
	// the service stores without being able to read. Its contents are
	// checked by whoever holds the key; Validate still runs and must
	// accept it.
	Sealed proto.Message
	// Mutate fills in defaults before validation; it may change res.
	Mutate func(res *pbresource.Resource) error
	// Validate rejects resources that are not well-formed; its error becomes
	// InvalidArgument.
	Validate func(res *pbresource.Resource) error
	// Leaf types never own other resources: deleting one writes no
	// tombstone, and naming one as an owner is rejected.
	Leaf bool
	// GuardDelete, when set, may refuse a delete that is not forced, given
	// the resources the deleted one owns; its error becomes FailedPrecondition.
	GuardDelete func(res *pbresource.Resource, owned []*pbresource.Resource) error
	// internal types are written by the service itself, never by callers.
	internal bool
}

// Registry is the set of registered types. It is safe for concurrent use.
type Registry struct {
	mu    sync.RWMutex
	types map[string]Registration
}

// NewRegistry returns a registry holding only the service's own Tombstone type.
func NewRegistry() *Registry {
	r := &Registry{types: map[string]Registration{}}
	r.types[typeKey(TombstoneType)] = Registration{Type: TombstoneType, Leaf: true, internal: true}
	return r
}

func typeKey(t *pbresource.Type) string {
	return t.GetGroup() + "." + t.GetGroupVersion() + "." + t.GetKind()
}

// TypeString renders a type as group.version.kind for messages.
func TypeString(t *pbresource.Type) string { return typeKey(t) }

// Register adds a type. Registering the same group, version and kind twice
// is an error: two packages disagreeing about a type is a programming mistake.
func (r *Registry) Register(reg Registration) error {
	t := reg.Type
	if t.GetGroup() == "" || t.GetGroupVersion() == "" || t.GetKind() == "" {
		return fmt.Errorf("registering resource type %q: group, group version and kind are all required", typeKey(t))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, exists := r.types[typeKey(t)]; exists {
		return fmt.Errorf("resource type %s is already registered", typeKey(t))
	}
	r.types[typeKey(t)] = reg
	return nil
}

// Resolve returns the registration of a type.
func (r *Registry) Resolve(t *pbresource.Type) (Registration, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	reg, ok := r.types[typeKey(t)]
	return reg, ok
}

// resolveWritable returns the registration of a type callers may write.
func (r *Registry) resolveWritable(t *pbresource.Type) (Registration, error) {
	reg, ok := r.Resolve(t)
	if !ok {
		return reg, errorf(codes.InvalidArgument, "resource type %s is not registered; this store accepts only known record types", typeKey(t))
	}
	if reg.internal {
		return reg, errorf(codes.InvalidArgument, "resource type %s is written only by the service itself", typeKey(t))
	}
	return reg, nil
}

// mutateAndValidate applies a type's hooks and checks its data message.
func (reg Registration) mutateAndValidate(_ context.Context, res *pbresource.Resource) error {
	if reg.Mutate != nil {
		if err := reg.Mutate(res); err != nil {
			return errorf(codes.InvalidArgument, "%s: %v", describeID(res.GetId()), err)
		}
	}
	if reg.Data != nil {
		if res.GetData() == nil {
			return errorf(codes.InvalidArgument, "%s: data is required and must hold a %s", describeID(res.GetId()), reg.Data.ProtoReflect().Descriptor().FullName())
		}
		want := reg.Data
		if reg.Sealed != nil && res.GetData().MessageIs(reg.Sealed) {
			want = reg.Sealed
		}
		msg := want.ProtoReflect().New().Interface()
		if err := res.GetData().UnmarshalTo(msg); err != nil {
			return errorf(codes.InvalidArgument, "%s: data must hold a %s: %v", describeID(res.GetId()), want.ProtoReflect().Descriptor().FullName(), err)
		}
	}
	if reg.Validate != nil {
		if err := reg.Validate(res); err != nil {
			return errorf(codes.InvalidArgument, "%s: %v", describeID(res.GetId()), err)
		}
	}
	return nil
}
