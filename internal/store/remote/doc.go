// Package remote is a store.Backend that keeps its records in a `terrane
// serve` endpoint: reads, lists and watches go through the endpoint's
// hashicorp.consul.resource.ResourceService, writes and deletes through its
// terrane.store.v1.BatchService. The caller runs the service rules (Uid,
// Generation, owners) on top, exactly as over a local backend.
package remote
