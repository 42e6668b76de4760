// Package recordstore keeps a workspace's state as records: one
// ResourceInstance record per resource instance, one Output record per root
// output, all owned by the workspace's Workspace record, written through the
// in-process ResourceService with compare-and-swap. It converts between
// those records and the states model, leaving object attributes encoded.
package recordstore
