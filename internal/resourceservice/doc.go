// Package resourceservice gives stored records the semantics of Consul's
// ResourceService (hashicorp.consul.resource): server-assigned Uid and
// Generation, compare-and-swap writes, immutable owners, status written only
// through WriteStatus, finalizers, tombstones and the cascading-delete reaper.
//
// The same rules are offered twice: as the in-process Service the engine
// calls, and as the gRPC ResourceService (plus Terrane's BatchService
// extension) that `terrane serve` exposes with token authentication and TLS.
// Errors carry the gRPC codes the protocol names, in-process too, so callers
// check them with status.Code and errors.Is alike.
package resourceservice
