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
