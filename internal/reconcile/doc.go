// Package reconcile keeps the status of a workspace's records in step with
// the real objects: on an interval and on demand it runs a refresh-only
// plan of each registered workspace through the engine, as `terrane plan
// -refresh-only` does, and writes what it found to every resource instance
// record with WriteStatus (seed 001's Status and Conditions), never changing
// a record's content or Generation. A workspace that opts in with
// auto_apply = "drift" also gets a plan that only undoes the drift applied,
// with the journal and intents of any apply.
//
// # Conditions
//
// Each managed resource instance record gets the status key StatusKey with
// one condition of each type InSync, Drifted, Missing and Failed: exactly
// one is STATE_TRUE and carries the reason and message, the others are
// STATE_FALSE (or STATE_UNKNOWN when the refresh failed and nothing is
// known). observed_generation is the Generation the refresh started from.
// The workspace record gets a summary under the same key (see
// WorkspaceConditions).
//
// # Sharing records with runs
//
// An instance that another live run holds an intent on is left alone, and
// a status observed before an apply changed the record is dropped rather
// than written over the new Generation: an apply's intents win. Status
// writes change only a record's Version, which applies follow.
package reconcile
