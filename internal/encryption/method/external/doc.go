// Package external is the external method: programs encrypt and decrypt,
// run as OpenTofu 1.10 runs them. Each reads the key (when the method has
// keys) and the payload, both base64-encoded, and writes the transformed
// payload.
package external
