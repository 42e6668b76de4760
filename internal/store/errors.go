package store

import "errors"

var (
	// ErrClosed is returned by a Watch, and by every Backend method, once the
	// watch or its backend has been closed.
	ErrClosed = errors.New("store closed")
	// ErrWatchExpired ends a watch whose next events are no longer kept by
	// the backend (its change history was pruned or compacted while the
	// watcher lagged). The watcher should start a new WatchList, whose
	// snapshot brings it up to date.
	ErrWatchExpired = errors.New("watch fell behind the change history the store keeps; start a new watch")
)

// ErrUnavailable wraps a failure to reach the store: it did not answer in
// time or the connection to it is down. A write that failed this way may
// or may not have been applied; a caller that retries must read back
// what is stored before it writes again.
var ErrUnavailable = errors.New("the state store is unavailable")
