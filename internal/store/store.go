package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/terrane/terrane/proto/pbresource"
)

// ReadConsistency selects between a read that may be served from a local,
// possibly stale, view and one that reflects every acknowledged write.
type ReadConsistency int

const (
	// EventualConsistency allows a backend to answer from a view that may lag
	// behind the latest acknowledged write.
	EventualConsistency ReadConsistency = iota
	// StrongConsistency requires the answer to reflect every write that was
	// acknowledged before the read began.
	StrongConsistency
)

// Wildcard matches every value of a tenancy unit in List and WatchList.
const Wildcard = "*"

var (
	// ErrNotFound is returned when no resource exists with the requested ID.
	ErrNotFound = errors.New("resource not found")
	// ErrCASFailure is returned when a write or delete names a Version that is
	// not the stored one, or creates (empty Version) a resource that exists.
	ErrCASFailure = errors.New("CAS operation failed because the given version doesn't match what is stored")
	// ErrWrongUid is returned when a write names a Uid other than the stored
	// resource's: the name was deleted and re-created since the caller read it.
	ErrWrongUid = errors.New("write failed because the given uid doesn't match what is stored")
	// ErrInconsistent is returned when a strongly consistent read cannot be
	// served (for example, the backend lost its quorum).
	ErrInconsistent = errors.New("cannot satisfy consistency requirements")
)

// GroupVersionMismatchError is returned by Read when the stored resource has a
// different GroupVersion from the one requested. The stored resource is
// included so callers can convert it.
type GroupVersionMismatchError struct {
	RequestedType *pbresource.Type
	Stored        *pbresource.Resource
}

func (e GroupVersionMismatchError) Error() string {
	return fmt.Sprintf("resource was requested with GroupVersion=%q, but stored with GroupVersion=%q",
		e.RequestedType.GetGroupVersion(), e.Stored.GetId().GetType().GetGroupVersion())
}

// Backend stores resources. It knows nothing of their semantics: Uid and
// Generation are set by the service layer above it; the backend owns only
// Version, which it changes on every write.
//
// Resources are identified by type (group and kind; GroupVersion is data,
// not identity), tenancy and name. Every implementation must pass the
// conformance suite in package storetest.
//
// Versions are opaque strings: a resource's Version changes on every write
// and is never reused for that name, but resources written by one Batch may
// share one (etcd). A nil Tenancy in List or WatchList matches every
// tenancy; an empty unit matches only the empty unit. After Close every
// method returns ErrClosed.
type Backend interface {
	// Read returns the stored resource with the given ID (the Uid is
	// ignored), ErrNotFound, or GroupVersionMismatchError.
	Read(ctx context.Context, consistency ReadConsistency, id *pbresource.ID) (*pbresource.Resource, error)

	// ReadMany returns the stored resource for each ID, in the order of ids,
	// with nil where none is stored. Uid and GroupVersion are ignored: a
	// resource stored under another GroupVersion is returned as stored. It
	// is how a caller planning a batch learns what exists in one round trip
	// instead of one Read per resource; the batch's own CAS checks still
	// guard against changes made after it.
	ReadMany(ctx context.Context, consistency ReadConsistency, ids []*pbresource.ID) ([]*pbresource.Resource, error)

	// WriteCAS stores res if its Version matches the stored Version; an empty
	// Version means "create only if absent". It returns the stored resource
	// with its new Version, ErrCASFailure or ErrWrongUid.
	WriteCAS(ctx context.Context, res *pbresource.Resource) (*pbresource.Resource, error)

	// DeleteCAS deletes the resource with the given ID if its Version matches.
	// Deleting an absent resource succeeds; a Version mismatch is ErrCASFailure.
	DeleteCAS(ctx context.Context, id *pbresource.ID, version string) error

	// List returns the resources of a type (GroupVersion ignored) whose tenancy
	// matches (each unit may be Wildcard) and whose name starts with namePrefix.
	List(ctx context.Context, consistency ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) ([]*pbresource.Resource, error)

	// ListByOwner returns the resources whose owner is the given ID, Uid included.
	ListByOwner(ctx context.Context, owner *pbresource.ID) ([]*pbresource.Resource, error)

	// WatchList returns a watch that first yields every matching resource as an
	// upsert, then one EndOfSnapshot event, then every later upsert and delete
	// in the order the backend applied them. A watch that falls further behind
	// than the backend keeps history ends with ErrWatchExpired; the caller
	// starts a new one, whose snapshot catches it up.
	WatchList(ctx context.Context, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string) (Watch, error)

	// Batch applies every operation or none. Each write or delete is a CAS with
	// the rules of WriteCAS and DeleteCAS; if any fails, nothing is applied and
	// the error is a *BatchError naming the failing operation. The stored
	// resources are returned in the order of the operations (nil for deletes).
	// (etcd applies a batch larger than its transaction limit in parts; see
	// that package.)
	Batch(ctx context.Context, ops []Op) ([]*pbresource.Resource, error)

	// Close releases the backend's resources. Watches end with an error.
	Close() error
}

// EachLister is a Backend that can hand List's resources to a function one
// at a time, in List's order, instead of returning them all at once: a
// caller that keeps only what it derives from each resource (the engine
// loading a large workspace) then never holds every stored resource too.
// Backends without it are served from List.
type EachLister interface {
	// ListEach calls yield with each resource List would return, stopping
	// at the first error yield returns, which it returns.
	ListEach(ctx context.Context, consistency ReadConsistency, resType *pbresource.Type, tenancy *pbresource.Tenancy, namePrefix string, yield func(*pbresource.Resource) error) error
}

// OpKind says what a batch operation does.
type OpKind int

const (
	// OpWrite is a WriteCAS of Op.Resource.
	OpWrite OpKind = iota + 1
	// OpDelete is a DeleteCAS of Op.ID at Op.Version.
	OpDelete
)

// Op is one operation of an atomic batch.
type Op struct {
	Kind     OpKind
	Resource *pbresource.Resource // for OpWrite
	ID       *pbresource.ID       // for OpDelete
	Version  string               // for OpDelete
}

// BatchError reports which operation of a batch failed; Err is one of the
// errors WriteCAS or DeleteCAS return.
type BatchError struct {
	Index int
	Err   error
}

func (e *BatchError) Error() string {
	return fmt.Sprintf("batch operation %d: %v", e.Index, e.Err)
}

func (e *BatchError) Unwrap() error { return e.Err }

// EventKind classifies a watch event.
type EventKind int

const (
	// EventUpsert reports a created or changed resource.
	EventUpsert EventKind = iota + 1
	// EventDelete reports a deleted resource (the last stored value).
	EventDelete
	// EventEndOfSnapshot marks the end of the initial snapshot.
	EventEndOfSnapshot
)

// WatchEvent is one event of a Watch.
type WatchEvent struct {
	Kind     EventKind
	Resource *pbresource.Resource // nil for EventEndOfSnapshot
}

// Watch is a stream of events. Next blocks until an event, ctx is done, or
// the watch or its backend is closed.
type Watch interface {
	Next(ctx context.Context) (WatchEvent, error)
	Close()
}
