// Package memory is an in-process store.Backend for tests: every record
// lives in a map guarded by one mutex, and nothing survives the process.
package memory
