package modules

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// SourceKind says how a module source address is installed.
type SourceKind int

// The kinds of module source.
const (
	// SourceLocal is a path relative to the calling module ("./x", "../x").
	SourceLocal SourceKind = iota
	// SourceRegistry is a module registry address, [HOST/]NS/NAME/SYSTEM.
	SourceRegistry
	// SourceRemote is anything go-getter fetches: git, HTTP archives.
	SourceRemote
)

// Source is a parsed module source address.
type Source struct {
	Kind SourceKind
	// Raw is the address as written.
	Raw string
	// Registry is set for SourceRegistry; its host is registry.opentofu.org
	// when the address names none, as in OpenTofu.
	Registry tfaddr.Module
	// Remote is the go-getter address of the package (without the
	// subdirectory) for SourceRemote.
	Remote string
	// Subdir is the module's directory inside its package ("//modules/x").
	Subdir string
}

// unsupportedGetters are go-getter schemes Terrane does not fetch.
var unsupportedGetters = map[string]string{
	"s3":  "Amazon S3",
	"gcs": "Google Cloud Storage",
	"hg":  "Mercurial",
}

var forcedGetter = regexp.MustCompile(`^([A-Za-z0-9]+)::(.+)$`)

// ParseSource classifies a module source address, in Terraform's order:
// local paths, then registry addresses, then remote addresses.
func ParseSource(raw string) (Source, error) {
	if raw == "" {
		return Source{}, fmt.Errorf("the source address is empty")
	}
	if isLocal(raw) {
		return Source{Kind: SourceLocal, Raw: raw}, nil
	}
	if registry, err := tfaddr.ParseModuleSource(raw); err == nil {
		if packagePart, _ := splitSubdir(raw); strings.Count(packagePart, "/") == 2 {
			registry.Package.Host = addrs.DefaultProviderRegistryHost
		}
		return Source{Kind: SourceRegistry, Raw: raw, Registry: registry, Subdir: registry.Subdir}, nil
	}
	return parseRemote(raw)
}

func isLocal(raw string) bool {
	return raw == "." || raw == ".." || strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") ||
		strings.HasPrefix(raw, ".\\") || strings.HasPrefix(raw, "..\\")
}

func parseRemote(raw string) (Source, error) {
	packagePart, subdir := splitSubdir(raw)
	if match := forcedGetter.FindStringSubmatch(packagePart); match != nil {
		if name, unsupported := unsupportedGetters[strings.ToLower(match[1])]; unsupported {
			return Source{}, fmt.Errorf("modules from %s (%s::) are not supported by Terrane; copy the module into a git repository, an HTTP archive or the module registry", name, match[1])
		}
	}
	lower := strings.ToLower(packagePart)
	switch {
	case strings.Contains(lower, ".amazonaws.com/") && !strings.HasPrefix(lower, "git::"):
		return Source{}, fmt.Errorf("modules from Amazon S3 are not supported by Terrane; serve the archive over HTTPS or use a git repository")
	case strings.Contains(lower, "storage.googleapis.com/") && !strings.HasPrefix(lower, "git::"):
		return Source{}, fmt.Errorf("modules from Google Cloud Storage are not supported by Terrane; serve the archive over HTTPS or use a git repository")
	}
	if strings.HasPrefix(subdir, "../") || subdir == ".." {
		return Source{}, fmt.Errorf("the subdirectory %q leads outside the module package", subdir)
	}
	if strings.HasPrefix(packagePart, "/") {
		// As in OpenTofu, an absolute path is a package of its own, copied
		// in like a remote one, not a directory of the calling module's.
		packagePart = "file://" + packagePart
	}
	return Source{Kind: SourceRemote, Raw: raw, Remote: packagePart, Subdir: subdir}, nil
}

// splitSubdir splits "PACKAGE//SUBDIR?QUERY" into "PACKAGE?QUERY" and
// "SUBDIR", skipping the "//" of a URL scheme.
func splitSubdir(raw string) (string, string) {
	searchFrom := 0
	if schemeEnd := strings.Index(raw, "://"); schemeEnd >= 0 {
		searchFrom = schemeEnd + 3
	}
	cut := strings.Index(raw[searchFrom:], "//")
	if cut < 0 {
		return raw, ""
	}
	cut += searchFrom
	packagePart, subdir := raw[:cut], raw[cut+2:]
	if query := strings.IndexByte(subdir, '?'); query >= 0 {
		packagePart += subdir[query:]
		subdir = subdir[:query]
	}
	return packagePart, path.Clean(subdir)
}

// packageAddress is the address of the package a remote or registry
// module comes in, as OpenTofu names it when it downloads one.
func (s Source) packageAddress() string {
	if s.Kind == SourceRegistry {
		return s.Registry.Package.Host.ForDisplay() + "/" + s.Registry.Package.ForRegistryProtocol()
	}
	return s.Remote
}
