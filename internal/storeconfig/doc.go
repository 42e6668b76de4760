// Package storeconfig decides which state store a working directory uses
// and opens it. The choice comes from Terrane's own backend type in the
// configuration (backend "terrane"), from init's -backend-config arguments
// and from TERRANE_BACKEND_* environment variables; init records it in
// .terrane/backend.json, as OpenTofu records its backend in
// .terraform/terraform.tfstate, and every later command checks that the
// configuration still names the recorded store before opening it.
package storeconfig
