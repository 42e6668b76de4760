// Package method defines what an encryption method of the encryption block
// is (OpenTofu's method blocks): a type that decodes its block, with the
// keys it references, into a Method that encrypts and decrypts payloads.
// The method types themselves live in the packages below this one.
package method
