package encryption

import (
	"fmt"
	"sort"
	"strings"

	"github.com/terrane/terrane/internal/encryption/keyprovider"
	"github.com/terrane/terrane/internal/encryption/keyprovider/external"
	"github.com/terrane/terrane/internal/encryption/keyprovider/pbkdf2"
	"github.com/terrane/terrane/internal/encryption/method"
	"github.com/terrane/terrane/internal/encryption/method/aesgcm"
	methodexternal "github.com/terrane/terrane/internal/encryption/method/external"
	"github.com/terrane/terrane/internal/encryption/method/unencrypted"
)

// registry holds the key provider and method types a configuration may use.
type registry struct {
	keyProviders map[string]keyprovider.Type
	methods      map[string]method.Type
}

// defaultTypes are the types Terrane implements; extraKeyProviders adds the
// cloud key services, registered from their own files.
func defaultRegistry() *registry {
	r := &registry{keyProviders: map[string]keyprovider.Type{}, methods: map[string]method.Type{}}
	for _, t := range append([]keyprovider.Type{pbkdf2.Type{}, external.Type{}}, cloudKeyProviders()...) {
		r.keyProviders[t.Name()] = t
	}
	for _, t := range []method.Type{aesgcm.Type{}, unencrypted.Type{}, methodexternal.Type{}} {
		r.methods[t.Name()] = t
	}
	return r
}

// knownElsewhere are OpenTofu's key provider types Terrane does not
// implement: naming them says so instead of "unknown type".
var knownElsewhere = map[string]bool{"azure_vault": true, "ovhcloud_kms": true, "stackit_kms": true}

func (r *registry) unknownKeyProvider(name string) string {
	names := make([]string, 0, len(r.keyProviders))
	for n := range r.keyProviders {
		names = append(names, n)
	}
	sort.Strings(names)
	if knownElsewhere[name] {
		return fmt.Sprintf("Terrane does not implement OpenTofu's %q key provider; it offers %s.", name, strings.Join(names, ", "))
	}
	return fmt.Sprintf("There is no key provider type %q; the types are %s.", name, strings.Join(names, ", "))
}

func (r *registry) unknownMethod(name string) string {
	names := make([]string, 0, len(r.methods))
	for n := range r.methods {
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Sprintf("There is no method type %q; the types are %s.", name, strings.Join(names, ", "))
}
