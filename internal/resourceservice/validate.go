package resourceservice

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
)

// Reserved metadata keys (seed 001: "deletionTimestamp" and "finalizers" are
// reserved for internal use).
const (
	// DeletionTimestampKey marks a resource whose deletion waits for its
	// finalizers; its value is an RFC 3339 time.
	DeletionTimestampKey = "deletionTimestamp"
	// FinalizersKey holds a space-separated list of finalizer names. A
	// resource with finalizers is only marked by Delete; it is deleted once
	// the last finalizer is removed.
	FinalizersKey = "finalizers"
)

// DefaultTenancyUnit fills tenancy units left empty, as Consul does.
const DefaultTenancyUnit = "default"

const maxNameLength = 1024

// describeID renders an ID for messages: group.version.kind "name" in partition/namespace.
func describeID(id *pbresource.ID) string {
	return fmt.Sprintf("%s %q in %s/%s", typeKey(id.GetType()), id.GetName(),
		id.GetTenancy().GetPartition(), id.GetTenancy().GetNamespace())
}

// normalizeTenancy returns a copy of tenancy with empty units defaulted;
// wildcards are kept only when allowed.
func normalizeTenancy(tenancy *pbresource.Tenancy, wildcardAllowed bool) (*pbresource.Tenancy, error) {
	out := &pbresource.Tenancy{Partition: tenancy.GetPartition(), Namespace: tenancy.GetNamespace()}
	for _, unit := range []*string{&out.Partition, &out.Namespace} {
		if *unit == "" {
			*unit = DefaultTenancyUnit
		}
		if *unit == store.Wildcard && !wildcardAllowed {
			return nil, errorf(codes.InvalidArgument, "tenancy %s/%s: the wildcard %q is only allowed in List and WatchList", out.Partition, out.Namespace, store.Wildcard)
		}
	}
	return out, nil
}

func validateType(t *pbresource.Type, what string) error {
	if t.GetGroup() == "" || t.GetKind() == "" {
		return errorf(codes.InvalidArgument, "%s: type needs a group and a kind (got %q)", what, typeKey(t))
	}
	return nil
}

// normalizeID validates an ID naming one resource and returns a copy with
// its tenancy defaulted.
func normalizeID(id *pbresource.ID, what string) (*pbresource.ID, error) {
	if id == nil {
		return nil, errorf(codes.InvalidArgument, "%s: an ID is required", what)
	}
	if err := validateType(id.GetType(), what); err != nil {
		return nil, err
	}
	if err := validateName(id.GetName()); err != nil {
		return nil, errorf(codes.InvalidArgument, "%s: %v", what, err)
	}
	tenancy, err := normalizeTenancy(id.GetTenancy(), false)
	if err != nil {
		return nil, err
	}
	out := proto.Clone(id).(*pbresource.ID)
	out.Tenancy = tenancy
	return out, nil
}

func validateName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("a resource name is required")
	case len(name) > maxNameLength:
		return fmt.Errorf("resource name is %d bytes long; the limit is %d", len(name), maxNameLength)
	case !utf8.ValidString(name):
		return fmt.Errorf("resource name %q is not valid UTF-8", name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("resource name %q contains a control character", name)
	}
	return nil
}

// finalizers returns a resource's finalizer names.
func finalizers(res *pbresource.Resource) []string {
	return strings.Fields(res.GetMetadata()[FinalizersKey])
}

func isMarkedForDeletion(res *pbresource.Resource) bool {
	_, marked := res.GetMetadata()[DeletionTimestampKey]
	return marked
}

// sameOwner reports whether two owner references name the same resource; an
// empty Uid in want matches any incarnation.
func sameOwner(want, have *pbresource.ID) bool {
	if want == nil || have == nil {
		return want == nil && have == nil
	}
	if want.GetUid() != "" && want.GetUid() != have.GetUid() {
		return false
	}
	return store.SameType(want.GetType(), have.GetType()) &&
		want.GetName() == have.GetName() &&
		proto.Equal(want.GetTenancy(), have.GetTenancy())
}

func sameStatus(a, b map[string]*pbresource.Status) bool {
	return maps.EqualFunc(a, b, func(x, y *pbresource.Status) bool { return proto.Equal(x, y) })
}

// sameContent reports whether a write would leave a resource's content —
// everything but its status and versions — unchanged, in which case its
// Generation must not change.
func sameContent(a, b *pbresource.Resource) bool {
	return proto.Equal(a.GetData(), b.GetData()) &&
		maps.Equal(a.GetMetadata(), b.GetMetadata()) &&
		proto.Equal(a.GetOwner(), b.GetOwner()) &&
		a.GetId().GetType().GetGroupVersion() == b.GetId().GetType().GetGroupVersion()
}

// vetDeletionChange enforces the rules for writes touching a deferred
// deletion: deletionTimestamp is set only by Delete, and a resource marked for
// deletion may change only by losing finalizers.
func vetDeletionChange(input, existing *pbresource.Resource) error {
	if input.GetMetadata()[DeletionTimestampKey] != existing.GetMetadata()[DeletionTimestampKey] {
		return errorf(codes.InvalidArgument, "%s: metadata %q is set only by Delete and cannot be written", describeID(existing.GetId()), DeletionTimestampKey)
	}
	if !isMarkedForDeletion(existing) {
		return nil
	}
	kept := finalizers(input)
	for _, name := range kept {
		if !slices.Contains(finalizers(existing), name) {
			return errorf(codes.InvalidArgument, "%s is marked for deletion: finalizer %q cannot be added", describeID(existing.GetId()), name)
		}
	}
	withoutFinalizers := func(m map[string]string) map[string]string {
		c := maps.Clone(m)
		delete(c, FinalizersKey)
		return c
	}
	if !proto.Equal(input.GetData(), existing.GetData()) ||
		!maps.Equal(withoutFinalizers(input.GetMetadata()), withoutFinalizers(existing.GetMetadata())) {
		return errorf(codes.InvalidArgument, "%s is marked for deletion: only finalizers can be removed", describeID(existing.GetId()))
	}
	return nil
}
