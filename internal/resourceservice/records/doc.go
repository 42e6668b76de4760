// Package records defines how Terrane's state is laid out as ResourceService
// records — the Workspace, ResourceInstance, Output and ComponentChild types,
// their tenancy and naming — and registers their validation hooks with a
// service registry. The record messages themselves are in
// proto/terrane/recordsv1.
package records
