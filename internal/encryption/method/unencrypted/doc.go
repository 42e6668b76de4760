// Package unencrypted is the unencrypted method: it takes no arguments and
// marks, in a target's method chain, that data may be read (as a fallback)
// or written (as the primary method) in plain form. It exists only to
// migrate to and from encryption.
package unencrypted
