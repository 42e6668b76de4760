// Package schemacache keeps provider schemas on disk, keyed by the SHA-256
// of the provider executable, so a run need not ask a provider that allows
// it (get_provider_schema_optional) for a schema Terrane already has. The
// hash of each executable is itself remembered by path, size and
// modification time, so it is computed once per installed binary.
package schemacache
