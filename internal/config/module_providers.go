package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// checkPassedProviders checks the providers maps of the module calls in
// c against the modules they call: each configuration passed must be one
// the child can use, of the provider type the child expects, and every
// alias the child declares in configuration_aliases must be passed.
func checkPassedProviders(c *Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(c.Module.ModuleCalls) {
		call := c.Module.ModuleCalls[name]
		child := c.Children[name]
		if child == nil {
			continue // not loaded; already reported
		}
		for _, passed := range call.Providers {
			diags = append(diags, checkPassedProvider(c, child, passed)...)
		}
		diags = append(diags, checkRequiredAliasesPassed(call, child)...)
	}
	return diags
}

func checkPassedProvider(parent, child *Config, passed PassedProviderConfig) hcl.Diagnostics {
	var diags hcl.Diagnostics
	childName := passed.InChild.LocalName
	childType := child.Module.ProviderForLocalName(childName)
	_, childDeclared := child.Module.RequiredProviders[childName]
	if !childDeclared {
		display := addrs.ProviderForDisplay(childType)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Reference to undefined provider",
			Detail: fmt.Sprintf("There is no explicit declaration for local provider name %q in %s, so Terraform is assuming you mean to pass a configuration for %q.\n\nIf you also control the child module, add a required_providers entry named %q with the source address %q.",
				childName, moduleDisplayName(child.Path), display, childName, display),
			Subject: passed.InChildRange.Ptr(),
		})
	}
	parentType := parent.Module.ProviderForLocalName(passed.InParent.LocalName)
	// Only a type the child declares is certain; an implied one may differ
	// from the parent's just by registry host, and is already warned about.
	if childDeclared && (parentType.Type != childType.Type || parentType.Namespace != childType.Namespace) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Provider type mismatch",
			Detail: fmt.Sprintf("The local name %q in %s represents provider %q, but %q in %s represents %q.\n\nEach provider has its own distinct configuration schema and provider types, so this module's %q can be assigned only a configuration for %s, which is not required by %s.",
				passed.InParent.String(), moduleDisplayName(parent.Path), addrs.ProviderForDisplay(parentType),
				passed.InChild.String(), moduleDisplayName(child.Path), addrs.ProviderForDisplay(childType),
				passed.InChild.String(), childType.String(), moduleDisplayName(child.Path)),
			Subject: passed.InParentRange.Ptr(),
		})
		return diags
	}
	if passed.InParent.Alias == "" {
		return diags
	}
	if _, configured := parent.Module.ProviderConfigs[passed.InParent]; configured || parent.Module.hasConfigurationAlias(passed.InParent) {
		return diags
	}
	return append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Reference to undefined provider",
		Detail: fmt.Sprintf("There is no provider configuration %s in %s to pass to %s. Add a provider %q block with alias = %q, declare it in configuration_aliases, or pass an existing configuration.",
			passed.InParent.String(), moduleDisplayName(parent.Path), moduleDisplayName(child.Path), passed.InParent.LocalName, passed.InParent.Alias),
		Subject: passed.InParentRange.Ptr(),
	})
}

// checkRequiredAliasesPassed reports configuration_aliases of the child
// that the call does not pass: the child has no other way to get them.
func checkRequiredAliasesPassed(call *ModuleCall, child *Config) hcl.Diagnostics {
	passed := map[addrs.LocalProviderConfig]bool{}
	for _, p := range call.Providers {
		passed[p.InChild] = true
	}
	var diags hcl.Diagnostics
	for _, name := range sortedKeys(child.Module.RequiredProviders) {
		req := child.Module.RequiredProviders[name]
		for _, alias := range req.ConfigurationAliases {
			if passed[alias] {
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required provider configuration",
				Detail: fmt.Sprintf("The child module requires an additional configuration for provider %s, with the local name %q.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for %s in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose.",
					req.Type.String(), alias.String(), alias.String()),
				Subject: call.DeclRange.Ptr(),
			})
		}
	}
	return diags
}

func moduleDisplayName(path addrs.Module) string {
	if len(path) == 0 {
		return "the root module"
	}
	return path.String()
}
