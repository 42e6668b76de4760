package cliconfig

import (
	"net/url"
	"strings"

	"github.com/hashicorp/hcl/hcl/ast"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// providerInstallation decodes the provider_installation block, if any.
func (d *decoder) providerInstallation(items *ast.ObjectList) *ProviderInstallation {
	bodies := d.blockBodies(items, "provider_installation")
	if len(bodies) == 0 {
		return nil
	}
	if len(bodies) > 1 {
		d.errorAt(bodies[1].pos, "Duplicate provider_installation block",
			"A CLI configuration file may have only one provider_installation block; merge this one into the first.")
	}
	body := bodies[0]
	installation := &ProviderInstallation{DeclRange: *d.rangeAt(body.pos)}
	for _, item := range body.items.Items {
		name := firstKey(item)
		if name == "dev_overrides" {
			d.devOverrides(item, installation)
			continue
		}
		kind := MethodKind(name)
		switch kind {
		case FilesystemMirror, NetworkMirror, Direct:
		default:
			d.errorAt(item.Pos(), "Unknown provider installation method",
				"%s is not an installation method: use filesystem_mirror, network_mirror, direct or dev_overrides.", name)
			continue
		}
		if method, ok := d.installationMethod(kind, item); ok {
			installation.Methods = append(installation.Methods, method)
		}
	}
	return installation
}

// devOverrides decodes dev_overrides { "NAMESPACE/TYPE" = "DIR" }.
func (d *decoder) devOverrides(item *ast.ObjectItem, into *ProviderInstallation) {
	object, ok := item.Val.(*ast.ObjectType)
	if len(item.Keys) != 1 || !ok {
		d.errorAt(item.Pos(), "Invalid dev_overrides block", "Write dev_overrides { \"NAMESPACE/TYPE\" = \"/path/to/dir\" }.")
		return
	}
	if into.DevOverrides == nil {
		into.DevOverrides = make(map[tfaddr.Provider]string)
	}
	for _, entry := range objectItems(object) {
		given := firstKey(entry)
		provider, err := addrs.ParseProviderSource(given)
		if err != nil {
			d.errorAt(entry.Pos(), "Invalid dev_overrides entry", "%q is not a provider source address (NAMESPACE/TYPE or HOST/NAMESPACE/TYPE): %s.", given, err)
			continue
		}
		dir, ok := d.stringValue(entry, "the dev_overrides entry for "+given)
		if !ok {
			continue
		}
		if _, seen := into.DevOverrides[provider]; seen {
			d.errorAt(entry.Pos(), "Duplicate dev_overrides entry", "%s is overridden more than once; keep one entry.", addrs.ProviderForDisplay(provider))
			continue
		}
		into.DevOverrides[provider] = dir
	}
}

// methodAttributes lists the attributes each method accepts.
var methodAttributes = map[MethodKind][]string{
	FilesystemMirror: {"path", "include", "exclude"},
	NetworkMirror:    {"url", "include", "exclude"},
	Direct:           {"include", "exclude"},
}

// installationMethod decodes one filesystem_mirror, network_mirror or
// direct block.
func (d *decoder) installationMethod(kind MethodKind, item *ast.ObjectItem) (InstallationMethod, bool) {
	method := InstallationMethod{Kind: kind, DeclRange: *d.rangeAt(item.Pos())}
	object, ok := item.Val.(*ast.ObjectType)
	if len(item.Keys) != 1 || !ok {
		d.errorAt(item.Pos(), "Invalid "+string(kind)+" block", "Write %s { ... } with no labels.", kind)
		return method, false
	}
	valid := true
	for _, attr := range objectItems(object) {
		name := firstKey(attr)
		switch {
		case name == "path" && kind == FilesystemMirror:
			method.Path, ok = d.stringValue(attr, "path")
		case name == "url" && kind == NetworkMirror:
			method.URL, ok = d.stringValue(attr, "url")
			ok = ok && d.checkMirrorURL(attr, method.URL)
		case name == "include":
			method.Include, ok = d.patterns(attr, name)
		case name == "exclude":
			method.Exclude, ok = d.patterns(attr, name)
		default:
			d.errorAt(attr.Pos(), "Unknown "+string(kind)+" setting",
				"%s is not a setting of %s; it accepts %s.", name, kind, strings.Join(methodAttributes[kind], ", "))
			ok = false
		}
		valid = valid && ok
	}
	switch {
	case kind == FilesystemMirror && method.Path == "" && valid:
		d.errorAt(item.Pos(), "Missing filesystem mirror path", "filesystem_mirror needs path = \"DIR\", the mirror directory.")
		valid = false
	case kind == NetworkMirror && method.URL == "" && valid:
		d.errorAt(item.Pos(), "Missing network mirror URL", "network_mirror needs url = \"https://...\", the mirror's base URL.")
		valid = false
	}
	return method, valid
}

// checkMirrorURL requires an https URL, as the network mirror protocol does.
func (d *decoder) checkMirrorURL(attr *ast.ObjectItem, raw string) bool {
	parsed, err := url.Parse(raw)
	if err != nil || parsed.Scheme != "https" || parsed.Host == "" {
		d.errorAt(attr.Val.Pos(), "Invalid network mirror URL", "%q must be an https:// URL, such as \"https://mirror.example.com/providers/\".", raw)
		return false
	}
	return true
}

// patterns decodes an include or exclude list.
func (d *decoder) patterns(attr *ast.ObjectItem, what string) ([]ProviderPattern, bool) {
	raw, ok := d.stringList(attr, what)
	if !ok {
		return nil, false
	}
	patterns := make([]ProviderPattern, 0, len(raw))
	for _, given := range raw {
		pattern, err := ParseProviderPattern(given)
		if err != nil {
			d.errorAt(attr.Val.Pos(), "Invalid provider pattern in "+what, "%s.", err)
			return nil, false
		}
		patterns = append(patterns, pattern)
	}
	return patterns, true
}
