// Package atrest searches what a store left on disk (a database file, an
// etcd data directory) for values that must not be there in clear, for
// tests of state encryption.
package atrest
