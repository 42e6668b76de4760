// Package etcdtest starts a real, throwaway etcd server for tests: one
// member on loopback ports with a temporary data directory, stopped when the
// test ends.
package etcdtest
