// Package encryption is OpenTofu's state and plan encryption: the
// encryption block (and the TF_ENCRYPTION environment variable, merged
// over it), its key providers and methods, and the targets that use them —
// state, plan and remote_state_data_sources — with fallback chains and
// enforcement. A Target encrypts and decrypts payloads; RecordCipher
// applies the state target to store records, and the file functions read
// and write OpenTofu's encrypted state and plan file envelope.
package encryption
