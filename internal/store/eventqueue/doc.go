// Package eventqueue is the unbounded, ordered event buffer behind the
// watches of the store backends: producers never block on a slow watcher,
// and a watcher never loses an event.
package eventqueue
