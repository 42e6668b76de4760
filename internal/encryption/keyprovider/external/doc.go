// Package external is the external key provider: a program, run as
// OpenTofu 1.10 runs it, gives the keys. It reads null (when a key for new
// data is wanted) or the metadata it stored beside the data (when the key
// for that data is wanted) and writes the keys, base64-encoded, with the
// metadata to store.
package external
