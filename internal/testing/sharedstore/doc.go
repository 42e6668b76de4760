// Package sharedstore starts the shared state stores that tests and
// benchmarks run Terrane against: a real etcd server (package etcdtest) and
// a real `terrane serve` process over TLS with a token, each described by
// the TERRANE_BACKEND_* variables that point a working directory at it.
package sharedstore
