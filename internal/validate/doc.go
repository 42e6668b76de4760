// Package validate checks a configuration as OpenTofu's validate walk
// does, before any state is read: references name what is declared,
// expressions evaluate with unknown values for what only a run knows
// (input variables, resource attributes, count.index, each.*), and every
// provider, resource and data block decodes against its provider's schema
// and passes the provider's own validation. `terrane validate` runs it, and
// so does every plan, before planning.
package validate
