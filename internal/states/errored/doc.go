// Package errored keeps what a run could not record in its store: the
// results of provider calls that finished while the store refused writes
// (a full disk, a read-only file, a store that went away). They go to
// errored.tfstate beside the configuration, as OpenTofu writes the state its
// backend refused, so that no object's ID is known only to a terminal; and
// `terrane state push errored.tfstate` takes them back into the records.
//
// The file is a state v4 file holding only those instances, marked as such
// (statefile.File.Unrecorded), so that pushing it adds them to the
// workspace's records instead of replacing the workspace. The run that
// failed and every later run describe the file with the same words
// (Advice), so what a user is told to do does not change from one run to
// the next. Where state is encrypted, the file and its printed copy are
// encrypted with it (Sealing), as OpenTofu encrypts its errored.tfstate.
//
// The engine gathers results into Results as writes fail; a command writes
// them out with Results.WriteFile and checks for a file left by an earlier
// run with Read and File.Pending before it plans.
package errored
