// Package sqlite is Terrane's embedded store.Backend: one SQLite database
// file in WAL mode, safe to share between processes, whose change log lets a
// watch in one process follow the writes of another.
//
// Durability: the database runs with synchronous=FULL, so a commit returns
// only after its WAL frames are fsynced. With synchronous=NORMAL a WAL
// database survives a process crash but may lose the last commits on power
// loss, and an acknowledged intent must never be lost, so NORMAL is not used.
// Each Batch is one transaction and so one fsync.
//
// Versions are the value of a revision counter kept in the database and
// bumped by every change, so they are unique and increase with each write.
// The same revision numbers the rows of the change log that watches poll.
package sqlite
