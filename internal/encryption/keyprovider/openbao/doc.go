// Package openbao is the openbao key provider: OpenBao's Transit secrets
// engine (or HashiCorp Vault's, up to 1.14) generates a data key for each
// run's writes and decrypts it from the wrapped form stored beside the
// data. It speaks the two Transit calls over HTTP itself, honouring the
// BAO_* environment variables OpenBao's client reads.
package openbao
