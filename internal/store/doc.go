// Package store holds resource records. It defines the small Backend
// interface that every storage engine implements — memory, SQLite, etcd and a
// remote client — and nothing about what the records mean. The helpers here
// (matching, CAS rules) are the one statement of those rules the backends share;
// package storetest checks every backend keeps them.
package store
