package depsfile

import (
	"slices"
	"sort"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/plugin/discovery"
)

// FileName is the dependency lock file's name in a configuration directory.
const FileName = ".terraform.lock.hcl"

// Locks is the content of a dependency lock file: at most one lock per
// provider. The zero value is not usable; start from NewLocks.
type Locks struct {
	providers map[addrs.Provider]*ProviderLock
	// sources holds the file's text by name, for diagnostic snippets.
	sources map[string]*hcl.File
}

// NewLocks returns an empty set of locks.
func NewLocks() *Locks {
	return &Locks{providers: map[addrs.Provider]*ProviderLock{}}
}

// Provider returns the lock for provider, or nil when there is none.
func (l *Locks) Provider(provider addrs.Provider) *ProviderLock {
	return l.providers[provider]
}

// SetProvider records (or replaces) the lock for a provider and returns it.
// The hashes are deduplicated and sorted, as the file keeps them.
func (l *Locks) SetProvider(provider addrs.Provider, version versions.Version, constraints discovery.Constraints, hashes []discovery.Hash) *ProviderLock {
	lock := NewProviderLock(provider, version, constraints, hashes)
	l.providers[provider] = lock
	return lock
}

// RemoveProvider forgets the lock for provider, if any.
func (l *Locks) RemoveProvider(provider addrs.Provider) {
	delete(l.providers, provider)
}

// AllProviders returns every provider lock, keyed by provider. The map is a
// copy; the locks are shared.
func (l *Locks) AllProviders() map[addrs.Provider]*ProviderLock {
	out := make(map[addrs.Provider]*ProviderLock, len(l.providers))
	for provider, lock := range l.providers {
		out[provider] = lock
	}
	return out
}

// SortedProviders returns the locked providers in the file's order.
func (l *Locks) SortedProviders() []addrs.Provider {
	out := make([]addrs.Provider, 0, len(l.providers))
	for provider := range l.providers {
		out = append(out, provider)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LessThan(out[j]) })
	return out
}

// Empty reports whether there are no locks.
func (l *Locks) Empty() bool { return len(l.providers) == 0 }

// Equal reports whether two sets of locks would be written identically.
func (l *Locks) Equal(other *Locks) bool {
	if len(l.providers) != len(other.providers) {
		return false
	}
	for provider, lock := range l.providers {
		if !lock.Equal(other.providers[provider]) {
			return false
		}
	}
	return true
}

// Sources returns the parsed file by name, for rendering diagnostics with
// snippets of the lock file.
func (l *Locks) Sources() map[string]*hcl.File {
	return l.sources
}

// ProviderLock is the lock of one provider: the selected version, the
// constraints it was selected under and the checksums of its packages.
type ProviderLock struct {
	provider    addrs.Provider
	version     versions.Version
	constraints discovery.Constraints
	hashes      []discovery.Hash
	// parameterization is set for a Pulumi sub-package; see
	// Parameterization.
	parameterization *Parameterization
}

// NewProviderLock builds a lock; the hashes are deduplicated and sorted.
func NewProviderLock(provider addrs.Provider, version versions.Version, constraints discovery.Constraints, hashes []discovery.Hash) *ProviderLock {
	sorted := slices.Clone(hashes)
	slices.Sort(sorted)
	return &ProviderLock{
		provider:    provider,
		version:     version,
		constraints: slices.Clone(constraints),
		hashes:      slices.Compact(sorted),
	}
}

// Provider is the locked provider's address.
func (l *ProviderLock) Provider() addrs.Provider { return l.provider }

// Version is the selected version.
func (l *ProviderLock) Version() versions.Version { return l.version }

// Constraints are the version constraints the version was selected under.
func (l *ProviderLock) Constraints() discovery.Constraints { return slices.Clone(l.constraints) }

// Hashes are the recorded package checksums, sorted.
func (l *ProviderLock) Hashes() []discovery.Hash { return slices.Clone(l.hashes) }

// ContainsAll reports whether every one of hashes is recorded already.
func (l *ProviderLock) ContainsAll(hashes []discovery.Hash) bool {
	for _, hash := range hashes {
		if _, found := slices.BinarySearch(l.hashes, hash); !found {
			return false
		}
	}
	return true
}

// Equal reports whether two locks would be written identically.
func (l *ProviderLock) Equal(other *ProviderLock) bool {
	if l == nil || other == nil {
		return l == other
	}
	return l.provider == other.provider &&
		l.version.Same(other.version) &&
		ConstraintsString(l.constraints) == ConstraintsString(other.constraints) &&
		slices.Equal(l.hashes, other.hashes) &&
		l.parameterization.Equal(other.parameterization)
}
