// Package etcd is the shared store.Backend on an etcd v3 cluster: records
// are keys laid out by type, tenancy and name, CAS is a transaction on the
// key's mod revision, watches are etcd watches, and run claims are leases.
//
// Layout under the configured prefix (default "/terrane/"):
//
//	r/<group>/<kind>/<partition>/<namespace>/<name>      the resource (protobuf)
//	o/<owner group>/<kind>/<partition>/<namespace>/<name>/<uid>/<resource key>
//	                                                     owner index (value: resource key)
//	claims/<key>                                         run claims, bound to a lease
//
// Group, kind and tenancy units are path-escaped so "/" only separates
// parts; the name is stored as given, so a name prefix is a key prefix.
//
// A resource's Version is its key's mod revision. Every put of one
// transaction shares that revision, so resources written by one Batch share
// a Version; each still changes on every write.
//
// Batches: etcd limits a transaction to --max-txn-ops operations (128 by
// default; Options.MaxTxnOps) and a request to --max-request-bytes (1.5 MiB
// by default; Options.MaxTxnBytes stays under it). Each transaction is
// filled as far as both allow, counting each key's operations from what it
// holds (an update that keeps its owner is one operation, a create two). A
// Batch whose operations fit is one transaction and atomic. A larger Batch is checked in full before anything
// is written, then committed as consecutive transactions in order; only if
// another writer changes one of its resources between two of them does a
// later part fail, and then the earlier parts stay applied and the
// *store.BatchError names the first operation not applied.
package etcd
