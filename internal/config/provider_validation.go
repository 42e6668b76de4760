package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/terrane/terrane/internal/addrs"
)

// moduleProviders is what one module declares about provider
// configurations, by "NAME" or "NAME.ALIAS", as OpenTofu's provider
// validation gathers it.
type moduleProviders struct {
	// configured are provider blocks with arguments (or a version);
	// empty are the empty ones, which may stand for a passed
	// configuration.
	configured map[string]hcl.Range
	empty      map[string]hcl.Range
	// instanced is each block's for_each, nil when it has none.
	instanced map[string]hcl.Expression
	// localNames are the required_providers entries' types, and aliases
	// the configuration_aliases they declare.
	localNames map[string]addrs.Provider
	aliases    map[string]addrs.AbsProviderConfig
	// passedIn are the configurations the module call passes in.
	passedIn map[string]PassedProviderConfig
}

func providerKey(name, alias string) string {
	if alias != "" {
		return name + "." + alias
	}
	return name
}

// validateProviderConfigs checks, once the whole tree is loaded without
// errors, how each module configures, receives and passes on provider
// configurations, as OpenTofu's configuration builder does: children
// first, then the module itself. parentCall is the call of c (nil for the
// root) and noConfigRange, when set, the count, for_each, enabled or
// depends_on of a call above that forbids provider blocks below it.
func validateProviderConfigs(parentCall *ModuleCall, c *Config, noConfigRange *hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(c.Children) {
		call := c.Module.ModuleCalls[name]
		if call == nil {
			continue
		}
		diags = append(diags, validateProviderConfigs(call, c.Children[name], forbiddingRange(call, noConfigRange))...)
	}
	mp, more := gatherModuleProviders(c, parentCall)
	diags = append(diags, more...)
	diags = append(diags, impliedProviderNameDiags(c, mp)...)
	diags = append(diags, instanceKeyDiags(c, mp)...)
	diags = append(diags, passedOnDiags(c, mp, parentCall)...)
	if c.Parent == nil {
		return diags
	}
	diags = append(diags, receivedDiags(c, mp, parentCall, noConfigRange)...)
	for _, name := range sortedKeys(mp.passedIn) {
		diags = append(diags, passedInDiags(c, mp, mp.passedIn[name], name)...)
	}
	return append(diags, emptyBlockDiags(c, mp)...)
}

// forbiddingRange is what forbids provider blocks in the module call
// calls and below: its count, for_each, enabled or depends_on.
func forbiddingRange(call *ModuleCall, above *hcl.Range) *hcl.Range {
	switch {
	case call.Count != nil:
		return call.Count.Range().Ptr()
	case call.ForEach != nil:
		return call.ForEach.Range().Ptr()
	case call.Enabled != nil:
		return call.Enabled.Range().Ptr()
	case len(call.DependsOn) > 0:
		return call.DependsOn[0].SourceRange().Ptr()
	}
	return above
}

func gatherModuleProviders(c *Config, parentCall *ModuleCall) (*moduleProviders, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	mod := c.Module
	mp := &moduleProviders{configured: map[string]hcl.Range{}, empty: map[string]hcl.Range{}, instanced: map[string]hcl.Expression{},
		localNames: map[string]addrs.Provider{}, aliases: map[string]addrs.AbsProviderConfig{}, passedIn: map[string]PassedProviderConfig{}}
	for _, p := range mod.ProviderConfigs {
		name := providerKey(p.Name, p.Alias)
		if _, contentDiags := p.Config.Content(&hcl.BodySchema{}); contentDiags.HasErrors() || p.Version.Source != "" {
			mp.configured[name] = p.DeclRange
		} else {
			mp.empty[name] = p.DeclRange
		}
		mp.instanced[name] = p.ForEach
	}
	localTypes := map[addrs.Provider]bool{}
	// OpenTofu takes the entries in Go map order, so which of two names
	// for one provider it calls the duplicate varies; source order gives
	// its usual answer, the later one.
	names := sortedKeys(mod.RequiredProviders)
	sort.SliceStable(names, func(i, j int) bool {
		a, b := mod.RequiredProviders[names[i]].DeclRange, mod.RequiredProviders[names[j]].DeclRange
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
	for _, name := range names {
		req := mod.RequiredProviders[name]
		if localTypes[req.Type] {
			diags = append(diags, duplicateRequirementDiag(mp, req))
		} else if isDefaultProvider(req.Type) {
			diags = append(diags, impliedDuplicateDiags(mod, req)...)
		}
		localTypes[req.Type] = true
		mp.localNames[req.Name] = req.Type
		for _, alias := range req.ConfigurationAliases {
			mp.aliases[providerKey(alias.LocalName, alias.Alias)] = addrs.AbsProviderConfig{Module: c.Path, Provider: req.Type, Alias: alias.Alias}
		}
	}
	if parentCall != nil {
		for _, passed := range parentCall.Providers {
			mp.passedIn[providerKey(passed.InChild.LocalName, passed.InChild.Alias)] = passed
		}
	}
	return mp, diags
}

// isDefaultProvider reports a provider of the default registry's
// hashicorp namespace, which a bare local name means.
func isDefaultProvider(provider addrs.Provider) bool {
	return provider.Hostname == addrs.DefaultProviderRegistryHost && provider.Namespace == "hashicorp"
}

func duplicateRequirementDiag(mp *moduleProviders, req *RequiredProvider) *hcl.Diagnostic {
	prev := ""
	for _, name := range sortedKeys(mp.localNames) {
		if mp.localNames[name] == req.Type && prev == "" {
			prev = name
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Duplicate required provider",
		Detail: fmt.Sprintf("Provider %s with the local name %q was previously required as %q. A provider can only be required once within required_providers.",
			addrs.ProviderForDisplay(req.Type), req.Name, prev),
		Subject: req.DeclRange.Ptr(),
	}
}

// impliedDuplicateDiags warns of a provider block whose name implies the
// provider that required_providers declares under another name.
func impliedDuplicateDiags(mod *Module, req *RequiredProvider) hcl.Diagnostics {
	implied := req.Type.Type
	for _, p := range mod.ProviderConfigs {
		if p.Name == implied && req.Name != implied {
			return hcl.Diagnostics{{
				Severity: hcl.DiagWarning,
				Summary:  "Duplicate required provider",
				Detail: fmt.Sprintf("Provider %s with the local name %q was implicitly required via a configuration block as %q. The provider configuration block name must match the name used in required_providers.",
					addrs.ProviderForDisplay(req.Type), req.Name, req.Type.Type),
				Subject: req.DeclRange.Ptr(),
			}}
		}
	}
	return nil
}

// impliedProviderNameDiags checks the resources that name no provider:
// their type's prefix must be a valid local name, and should not imply a
// provider required_providers knows by another name.
func impliedProviderNameDiags(c *Config, mp *moduleProviders) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, r := range sortedResources(c.Module.Resources) {
		if r.ProviderConfigRef != nil {
			continue
		}
		local := r.Addr().ImpliedProvider()
		if _, err := tfaddr.ParseProviderPart(local); err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider local name",
				Detail:   fmt.Sprintf("%q is an invalid implied provider local name: %s", local, err),
				Subject:  r.DeclRange.Ptr(),
			})
			continue
		}
		if _, ok := mp.localNames[local]; ok {
			continue
		}
		implied := addrs.ImpliedProviderForUnqualifiedType(local)
		for _, prev := range sortedKeys(mp.localNames) {
			if mp.localNames[prev] != implied {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Duplicate required provider",
				Detail: fmt.Sprintf("Provider %q was implicitly required via resource %q, but listed in required_providers as %q. Either the local name in required_providers must match the resource name, or the %q provider must be assigned within the resource block.",
					implied.String(), r.Addr().String(), prev, prev),
				Subject: r.DeclRange.Ptr(),
			})
		}
	}
	return diags
}

// instanceKeyDiags checks the instance keys of the provider references in
// module calls' providers maps and in resources against the provider
// blocks' for_each, and warns where a key iterates over the same
// collection as the block it selects from.
func instanceKeyDiags(c *Config, mp *moduleProviders) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, callName := range sortedKeys(c.Module.ModuleCalls) {
		call := c.Module.ModuleCalls[callName]
		for _, passed := range call.Providers {
			name := providerKey(passed.InParent.LocalName, passed.InParent.Alias)
			_, hasConfig := mp.configured[name]
			ref := providerRef{name: passed.InParent.LocalName, alias: passed.InParent.Alias, nameRange: passed.InParentNameRange, key: passed.InParentKey}
			diags = append(diags, ref.instanceDiags("module", mp.instanced[name] != nil, hasConfig)...)
			if passed.InParentKey != nil {
				diags = append(diags, providerIterationWarning("module", fmt.Sprintf("-target=%s", c.Path.Child(callName)), call.ForEach, mp.instanced[name])...)
			}
		}
	}
	for _, r := range sortedResources(c.Module.Resources) {
		if r.ProviderConfigRef == nil {
			continue
		}
		pr := r.ProviderConfigRef
		name := providerKey(pr.Name, pr.Alias)
		_, hasConfig := mp.configured[name]
		ref := providerRef{name: pr.Name, alias: pr.Alias, nameRange: pr.NameRange, key: pr.KeyExpr}
		diags = append(diags, ref.instanceDiags("resource", mp.instanced[name] != nil, hasConfig)...)
		if pr.KeyExpr != nil && r.Mode == addrs.ManagedResourceMode {
			addr := r.Addr().String()
			if !c.Path.IsRoot() {
				addr = c.Path.String() + "." + addr
			}
			diags = append(diags, providerIterationWarning("resource", "-target="+addr, r.ForEach, mp.instanced[name])...)
		}
	}
	return diags
}

// providerRef is a reference to a provider configuration, perhaps with an
// instance key.
type providerRef struct {
	name, alias string
	nameRange   hcl.Range
	key         hcl.Expression
}

func (r providerRef) instanceDiags(blockType string, instanced, hasConfig bool) hcl.Diagnostics {
	summary := fmt.Sprintf("Invalid %s provider configuration", blockType)
	diag := func(detail string, subject hcl.Range) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject.Ptr()}}
	}
	switch {
	case r.key != nil && r.alias == "":
		return diag("An instance key can be specified only for a provider configuration which has an alias and uses for_each.", r.key.Range())
	case r.key != nil && !instanced && !hasConfig:
		return diag(fmt.Sprintf("This module doesn't declare a provider %q block with alias = %q, which is required for use with for_each.", r.name, r.alias), r.nameRange)
	case r.key != nil && !instanced:
		return diag("An instance key can be specified only for a provider configuration that uses for_each.", r.key.Range())
	case r.key == nil && instanced:
		return diag("A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.", r.nameRange)
	}
	return nil
}

func moduleTexts(path addrs.Module) (module, parent string) {
	module, parent = "the root module", "the root module"
	if !path.IsRoot() {
		module = path.String()
		if up := path.Parent(); !up.IsRoot() {
			parent = up.String()
		}
	}
	return module, parent
}

// passedOnDiags warns about default configurations the module passes on to
// its calls: a name it never declared, or, outside the root, one it has no
// configuration for and was not passed itself.
func passedOnDiags(c *Config, mp *moduleProviders, parentCall *ModuleCall) hcl.Diagnostics {
	var diags hcl.Diagnostics
	moduleText, parentText := moduleTexts(c.Path)
	for _, callName := range sortedKeys(c.Module.ModuleCalls) {
		for _, passed := range c.Module.ModuleCalls[callName].Providers {
			if passed.InParent.Alias != "" {
				continue // aliases are never inherited: checked in the child
			}
			name := passed.InParent.LocalName
			_, confOK := mp.configured[name]
			_, localOK := mp.localNames[name]
			_, passedOK := mp.passedIn[name]
			implied := addrs.ProviderForDisplay(addrs.NewDefaultProvider(name))
			if !confOK && !localOK {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Reference to undefined provider",
					Detail: fmt.Sprintf("There is no explicit declaration for local provider name %q in %s, so Terrane is assuming you mean to pass a configuration for provider %q.\n\n"+
						"To clarify your intent and silence this warning, add to %s a required_providers entry named %q with source = %q, or a different source address if appropriate.",
						name, moduleText, implied, parentText, name, implied),
					Subject: passed.InParentNameRange.Ptr(),
				})
				continue
			}
			if c.Parent != nil && !confOK && !passedOK {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagWarning,
					Summary:  "Missing required provider configuration",
					Detail: fmt.Sprintf("The configuration for %s expects to inherit a configuration for provider %s with local name %q, but %s doesn't pass a configuration under that name.\n\n"+
						"To satisfy this requirement, add an entry for %q to the \"providers\" argument in the module %q block.",
						moduleText, implied, name, parentText, name, parentCall.Name),
					Subject: parentCall.DeclRange.Ptr(),
				})
			}
		}
	}
	return diags
}

// receivedDiags checks a child module's own provider blocks against its
// call: none where the call repeats the module, none the caller also
// passes, and every configuration alias passed.
func receivedDiags(c *Config, mp *moduleProviders, parentCall *ModuleCall, noConfigRange *hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	moduleText, parentText := moduleTexts(c.Path)
	if len(mp.configured) > 0 && noConfigRange != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Module is incompatible with count, for_each, enabled and depends_on",
			Detail: fmt.Sprintf("The module at %s is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, enabled or depends_on arguments.\n\n"+
				"If you also control the module %q, consider updating this module to instead expect provider configurations to be passed by its caller.",
				c.Path, c.SourceAddr),
			Subject: noConfigRange,
		})
	}
	for _, name := range sortedKeys(mp.configured) {
		if passed, ok := mp.passedIn[name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Cannot override provider configuration",
				Detail: fmt.Sprintf("The configuration of %s has its own local configuration for %s, and so it cannot accept an overridden configuration provided by %s.",
					moduleText, name, parentText),
				Subject: passed.InChildNameRange.Ptr(),
			})
		}
	}
	for _, name := range sortedKeys(mp.aliases) {
		_, confOK := mp.configured[name]
		_, passedOK := mp.passedIn[name]
		if confOK || passedOK {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required provider configuration",
			Detail: fmt.Sprintf("The child module requires an additional configuration for provider %s, with the local name %q.\n\n"+
				"Refer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for %s in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.",
				addrs.ProviderForDisplay(mp.aliases[name].Provider), name, name),
			Subject: parentCall.DeclRange.Ptr(),
		})
	}
	return diags
}

// providerTypeOf is the provider a module means by a local name, as
// OpenTofu resolves it for passed configurations: its required_providers
// entry, else its provider block's default, else nothing.
func providerTypeOf(mod *Module, name string) addrs.Provider {
	if req, ok := mod.RequiredProviders[name]; ok {
		return req.Type
	}
	for _, p := range mod.ProviderConfigs {
		if p.Name == name {
			return addrs.NewDefaultProvider(name)
		}
	}
	return addrs.Provider{}
}

// passedInDiags checks one configuration the call passes into c: c must
// declare the name, and the configuration must be of the provider c
// expects. name is the child's "NAME" or "NAME.ALIAS".
func passedInDiags(c *Config, mp *moduleProviders, passed PassedProviderConfig, name string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	moduleText, parentText := moduleTexts(c.Path)
	childType := providerTypeOf(c.Module, passed.InChild.LocalName)
	if childType.IsZero() {
		childType = addrs.NewDefaultProvider(passed.InChild.LocalName)
	}
	if local, ok := mp.localNames[name]; ok {
		childType = local
	}
	alias, isAlias := mp.aliases[name]
	if isAlias {
		childType = alias.Provider
	}
	_, isEmpty := mp.empty[name]
	_, isLocal := mp.localNames[name]
	display := addrs.ProviderForDisplay(childType)
	if !isLocal && !isAlias && !isEmpty {
		diag := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undefined provider", Subject: passed.InChildNameRange.Ptr(),
			Detail: fmt.Sprintf("The child module does not declare any provider requirement with the local name %q.\n\n"+
				"If you also control the child module, you can add a required_providers entry named %q with the source address %q to accept this provider configuration.", name, name, display)}
		if isDefaultProvider(childType) {
			diag.Severity = hcl.DiagWarning
			diag.Detail = fmt.Sprintf("There is no explicit declaration for local provider name %q in %s, so Terrane is assuming you mean to pass a configuration for %q.\n\n"+
				"If you also control the child module, add a required_providers entry named %q with the source address %q.", name, moduleText, display, name, display)
		}
		diags = append(diags, diag)
	}
	parentType := providerTypeOf(c.Parent.Module, passed.InParent.LocalName)
	if parentType.IsZero() {
		parentType = addrs.NewDefaultProvider(passed.InParent.LocalName)
	}
	// As OpenTofu, the caller's required_providers entry of the child's
	// name, when there is one, is taken to be what is passed.
	if req, ok := c.Parent.Module.RequiredProviders[name]; ok {
		parentType = req.Type
	}
	if childType == parentType {
		return diags
	}
	return append(diags, typeMismatchDiag(mp, passed, childType, parentType, moduleText, parentText))
}

func typeMismatchDiag(mp *moduleProviders, passed PassedProviderConfig, childType, parentType addrs.Provider, moduleText, parentText string) *hcl.Diagnostic {
	for _, other := range sortedKeys(mp.localNames) {
		if mp.localNames[other] != parentType {
			continue
		}
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider type mismatch",
			Detail: fmt.Sprintf("The assigned configuration is for provider %q, but local name %q in %s represents %q.\n\nTo pass this configuration to the child module, use the local name %q instead.",
				addrs.ProviderForDisplay(childType), passed.InChild.LocalName, parentText, addrs.ProviderForDisplay(parentType), other),
			Subject: passed.InChildNameRange.Ptr(),
		}
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Provider type mismatch",
		Detail: fmt.Sprintf("The local name %q in %s represents provider %q, but %q in %s represents %q.\n\n"+
			"Each provider has its own distinct configuration schema and provider types, so this module's %q can be assigned only a configuration for %s, which is not required by %s.",
			passed.InParent.String(), parentText, addrs.ProviderForDisplay(parentType), passed.InChild.String(), moduleText, addrs.ProviderForDisplay(childType),
			passed.InChild.String(), addrs.ProviderForDisplay(childType), moduleText),
		Subject: passed.InParentNameRange.Ptr(),
	}
}

// emptyBlockDiags warns, once per provider, that a child module's empty
// provider blocks are the deprecated way to ask for a configuration, and
// shows the required_providers entry that replaces them.
func emptyBlockDiags(c *Config, mp *moduleProviders) hcl.Diagnostics {
	type suggestion struct {
		source  addrs.Provider
		ranges  []hcl.Range
		configs []string
		aliases int
	}
	byLocal := map[string]*suggestion{}
	for _, name := range sortedKeys(mp.empty) {
		local, _, aliased := strings.Cut(name, ".")
		s := byLocal[local]
		if s == nil {
			source, ok := mp.localNames[name]
			if !ok {
				source = addrs.NewDefaultProvider(local)
			}
			s = &suggestion{source: source}
			byLocal[local] = s
		}
		if aliased {
			s.aliases++
		}
		s.configs = append(s.configs, name)
		s.ranges = append(s.ranges, mp.empty[name])
	}
	moduleText, _ := moduleTexts(c.Path)
	var diags hcl.Diagnostics
	for _, local := range sortedKeys(byLocal) {
		s := byLocal[local]
		var b strings.Builder
		fmt.Fprintf(&b, "Earlier versions of Terrane used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\n"+
			"If you control this module, you can migrate to the new declaration syntax by removing all of the empty provider %q blocks and then adding or updating an entry like the following to the required_providers block of %s:\n", local, moduleText)
		fmt.Fprintf(&b, "    %s = {\n      source = %q\n", local, addrs.ProviderForDisplay(s.source))
		if s.aliases > 0 {
			sort.Strings(s.configs)
			b.WriteString("      configuration_aliases = [\n")
			for _, name := range s.configs {
				fmt.Fprintf(&b, "        %s,\n", name)
			}
			b.WriteString("      ]\n")
		}
		b.WriteString("    }")
		sort.Slice(s.ranges, func(i, j int) bool { return s.ranges[i].String() < s.ranges[j].String() })
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Redundant empty provider block", Detail: b.String(), Subject: s.ranges[0].Ptr()})
	}
	return diags
}
