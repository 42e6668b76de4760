// Package workspaces lists and deletes the workspaces of a project in a
// ResourceService: each workspace is a tenancy holding a Workspace record
// and the instance and output records it owns.
package workspaces
