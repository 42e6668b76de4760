// Package store holds resource records. It defines the small Backend
// interface that every storage engine implements — memory, SQLite, etcd and a
// remote client — and nothing about what the records mean.
package store
