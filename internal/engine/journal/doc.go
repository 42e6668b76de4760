// Package journal makes the engine's writes to resource instance records
// durable before the engine relies on them, gathering the writes of many
// concurrent provider calls into few store commits, and resolves the intents
// a crashed run left open.
//
// # Group commit
//
// Before a provider call that may create, replace or delete a remote
// object, the engine opens an intent on the instance's record (BeginCall);
// after the call, it replaces the intent with the result (FinishCall). Both
// block until the write is durable: there is no write-behind, so no caller
// ever proceeds on a write the store could still lose (docs/architecture.md, "Nothing is
// silently forgotten"). A single committer goroutine takes every write queued
// while the previous commit ran and commits them together, one transaction
// and one fsync (docs/architecture.md, "Writes are batched"). One write failing its
// compare-and-swap fails only its own caller: the batch is retried without
// it.
//
// # Intents the engine opens
//
// Recovery relies on what a record holds while its intent is open:
//
//   - IntentCreate: no current object; the planned value is in the intent.
//   - IntentUpdate: the current object is the one being updated.
//   - IntentDelete: the object being deleted is current, or deposed under
//     the intent's DeposedKey.
//   - IntentReplaceDestroyBeforeCreate: the current object is the one being
//     replaced; it is deleted first, then its replacement created.
//   - IntentReplaceCreateBeforeDestroy: the replacement is being created
//     while the prior object is still current (or deposed under DeposedKey).
//
// # Recovery
//
// Recover resolves the open intents of a loaded snapshot. Where the object
// is known (update, delete, the prior object of a replace), it is read back
// through the provider and the result recorded. A create whose answer was
// lost cannot be found again, so it is reported by address, with the
// planned value and the ways out, and left alone until the user imports or
// forgets it. An intent held by another run that is still alive is a claim
// this run respects; see Holder for how liveness is judged.
package journal
