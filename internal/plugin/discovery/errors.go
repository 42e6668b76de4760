package discovery

import (
	"fmt"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// ErrProviderNotFound means no source had the provider.
type ErrProviderNotFound struct {
	Provider tfaddr.Provider
	// LookedIn describes each place searched.
	LookedIn []string
	// Sources name each place searched as OpenTofu lists them: a mirror
	// directory, "provider mirror at URL", "registry HOST".
	Sources []string
	// Notes explain what else the user might check, such as a source that
	// is not available in this version or the same provider found under
	// another registry host.
	Notes []string
}

func (e *ErrProviderNotFound) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "provider %s was not found", addrs.ProviderForDisplay(e.Provider))
	if len(e.LookedIn) > 0 {
		fmt.Fprintf(&b, " in %s", strings.Join(e.LookedIn, ", "))
	}
	for _, note := range e.Notes {
		b.WriteString("; ")
		b.WriteString(note)
	}
	return b.String()
}

// ErrPlatformNotSupported means a version exists but has no package for the
// platform asked for.
type ErrPlatformNotSupported struct {
	Provider tfaddr.Provider
	Version  versions.Version
	Platform Platform
	// Available lists the platforms the version does have packages for.
	Available []Platform
}

func (e *ErrPlatformNotSupported) Error() string {
	found := "no platform at all"
	if len(e.Available) > 0 {
		names := make([]string, len(e.Available))
		for i, platform := range e.Available {
			names[i] = platform.String()
		}
		found = strings.Join(names, ", ")
	}
	return fmt.Sprintf("provider %s v%s has no package for %s; packages found for: %s",
		addrs.ProviderForDisplay(e.Provider), e.Version, e.Platform, found)
}

// ErrSourceUnavailable means an installation method is configured that this
// version of Terrane cannot use yet, such as installation from a registry.
type ErrSourceUnavailable struct {
	Provider tfaddr.Provider
	Source   string
	Reason   string
}

func (e *ErrSourceUnavailable) Error() string {
	return fmt.Sprintf("%s cannot be used to find %s: %s", e.Source, addrs.ProviderForDisplay(e.Provider), e.Reason)
}
