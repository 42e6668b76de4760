// Package aesgcm is the aes_gcm method: AES in Galois/Counter Mode (NIST
// SP 800-38D) with 16, 24 or 32-byte keys and a random 12-byte nonce
// written before each ciphertext, the layout OpenTofu's method writes.
package aesgcm
