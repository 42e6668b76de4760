package cliconfig

import (
	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"
)

// Config is the CLI configuration after the file, the environment and the
// built-in defaults have been combined.
type Config struct {
	// Filename is the file the settings came from, or "" when none was read.
	Filename string

	// PluginCacheDir is the shared provider cache directory, or "" when
	// there is none. TF_PLUGIN_CACHE_DIR overrides the file's setting.
	PluginCacheDir string
	// PluginCacheMayBreakDependencyLockFile allows a cached package to be
	// used even when the lock file does not yet record its hash.
	PluginCacheMayBreakDependencyLockFile bool

	// ProviderInstallation says where providers come from. It is never nil
	// after Load: without a provider_installation block it holds the
	// implied methods (see ProviderInstallation.Implied).
	ProviderInstallation *ProviderInstallation

	// Credentials holds the credentials blocks by registry host, kept for
	// registry access.
	Credentials map[svchost.Hostname]Credentials
}

// ProviderInstallation is the provider_installation block: development
// overrides, then installation methods tried in order.
type ProviderInstallation struct {
	// DevOverrides maps a provider to a directory holding a build of it,
	// used whatever version the configuration asks for.
	DevOverrides map[tfaddr.Provider]string
	// Methods are the installation methods in the order written.
	Methods []InstallationMethod
	// Implied is true when the file has no provider_installation block and
	// Methods are the defaults: a filesystem mirror for each local plugin
	// directory that exists, then direct. As in Terraform, the implied direct
	// method is meant only for providers not found in those directories;
	// whoever builds sources from these methods applies that rule.
	Implied bool
	// DeclRange is where the block is written (zero when Implied).
	DeclRange hcl.Range
}

// MethodKind names an installation method.
type MethodKind string

// The installation methods a provider_installation block can list.
const (
	FilesystemMirror MethodKind = "filesystem_mirror"
	NetworkMirror    MethodKind = "network_mirror"
	Direct           MethodKind = "direct"
)

// InstallationMethod is one method block in provider_installation.
type InstallationMethod struct {
	Kind MethodKind
	// Path is the directory of a filesystem mirror.
	Path string
	// URL is the base URL of a network mirror.
	URL string
	// Include and Exclude select the providers the method is used for: a
	// provider is eligible when it matches some Include pattern (or Include
	// is empty) and no Exclude pattern.
	Include []ProviderPattern
	Exclude []ProviderPattern
	// DeclRange is where the method is written (zero for implied methods).
	DeclRange hcl.Range
}

// Matches reports whether the method is to be used for provider.
func (m InstallationMethod) Matches(provider tfaddr.Provider) bool {
	for _, pattern := range m.Exclude {
		if pattern.Matches(provider) {
			return false
		}
	}
	if len(m.Include) == 0 {
		return true
	}
	for _, pattern := range m.Include {
		if pattern.Matches(provider) {
			return true
		}
	}
	return false
}

// Credentials is a credentials block: the token for one registry host.
type Credentials struct {
	Token     string
	DeclRange hcl.Range
	// InCredentialsFile is true for a token `login` stored in the
	// credentials file, which login and logout may change; a block written
	// in the CLI configuration file is the user's to change.
	InCredentialsFile bool
}
