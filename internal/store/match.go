package store

import (
	"fmt"
	"strings"

	"github.com/terrane/terrane/proto/pbresource"
	"google.golang.org/protobuf/proto"
)

// SameType reports whether a and b name the same resource type. GroupVersion
// is data, not identity, so it is not compared.
func SameType(a, b *pbresource.Type) bool {
	return a.GetGroup() == b.GetGroup() && a.GetKind() == b.GetKind()
}

// SameID reports whether a and b identify the same resource name: type
// (without GroupVersion), tenancy and name. The Uid is not compared.
func SameID(a, b *pbresource.ID) bool {
	return SameType(a.GetType(), b.GetType()) &&
		a.GetTenancy().GetPartition() == b.GetTenancy().GetPartition() &&
		a.GetTenancy().GetNamespace() == b.GetTenancy().GetNamespace() &&
		a.GetName() == b.GetName()
}

// SameOwner reports whether owner refers to exactly the resource id,
// including its Uid: a re-created resource of the same name owns nothing of
// its predecessor's.
func SameOwner(owner, id *pbresource.ID) bool {
	return owner != nil && SameID(owner, id) && owner.GetUid() == id.GetUid()
}

// TenancyMatches reports whether have falls within want, where each unit of
// want may be Wildcard. A nil want matches every tenancy.
func TenancyMatches(want, have *pbresource.Tenancy) bool {
	if want == nil {
		return true
	}
	return unitMatches(want.GetPartition(), have.GetPartition()) &&
		unitMatches(want.GetNamespace(), have.GetNamespace())
}

func unitMatches(want, have string) bool {
	return want == Wildcard || want == have
}

// Matches reports whether res is selected by a List or WatchList with the
// given type, tenancy and name prefix.
func Matches(res *pbresource.Resource, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) bool {
	id := res.GetId()
	return SameType(id.GetType(), resType) &&
		TenancyMatches(tenancy, id.GetTenancy()) &&
		strings.HasPrefix(id.GetName(), namePrefix)
}

// CheckWrite applies the CAS rules of WriteCAS: stored is the current
// resource of that name or nil. It returns nil when res may replace stored.
func CheckWrite(stored, res *pbresource.Resource) error {
	if stored == nil {
		if res.GetVersion() != "" {
			return ErrCASFailure
		}
		return nil
	}
	if stored.GetVersion() != res.GetVersion() {
		return ErrCASFailure
	}
	if stored.GetId().GetUid() != res.GetId().GetUid() {
		return ErrWrongUid
	}
	return nil
}

// CheckDelete applies the CAS rules of DeleteCAS. Deleting an absent
// resource is allowed, so a retried delete succeeds.
func CheckDelete(stored *pbresource.Resource, version string) error {
	if stored == nil {
		return nil
	}
	if stored.GetVersion() != version {
		return ErrCASFailure
	}
	return nil
}

// CheckGroupVersion returns a GroupVersionMismatchError when stored was
// read with a type of another GroupVersion.
func CheckGroupVersion(requested *pbresource.ID, stored *pbresource.Resource) error {
	if requested.GetType().GetGroupVersion() != stored.GetId().GetType().GetGroupVersion() {
		return GroupVersionMismatchError{RequestedType: requested.GetType(), Stored: stored}
	}
	return nil
}

// Clone returns a deep copy of res, so that callers and backends never share
// mutable messages.
func Clone(res *pbresource.Resource) *pbresource.Resource {
	if res == nil {
		return nil
	}
	return proto.Clone(res).(*pbresource.Resource)
}

// OpID returns the ID an operation acts on.
func (op Op) OpID() *pbresource.ID {
	if op.Kind == OpWrite {
		return op.Resource.GetId()
	}
	return op.ID
}

// UnknownOpError reports a batch operation whose Kind is neither OpWrite nor
// OpDelete: a programming error in the caller.
func UnknownOpError(kind OpKind) error {
	return fmt.Errorf("unknown batch operation kind %d: use store.OpWrite or store.OpDelete", kind)
}
