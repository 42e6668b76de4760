package jsonconfig

import (
	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/providers"
)

// providerKey is a provider configuration's key in "provider_config": its
// local address, prefixed by the module path outside the root module.
func providerKey(module addrs.Module, local addrs.LocalProviderConfig) string {
	if len(module) == 0 {
		return local.String()
	}
	return module.String() + ":" + local.String()
}

// resolveProviderKey finds the configuration a module's reference to local
// ends at: a provider block of the module itself, else the parent's
// configuration passed to it in the module call's providers map or, for a
// default configuration, inherited implicitly; a module with neither uses an
// empty configuration of its own.
func resolveProviderKey(cfg *config.Config, local addrs.LocalProviderConfig) string {
	if cfg.HasOwnProviderConfig(local) || cfg.Parent == nil {
		return providerKey(cfg.Path, local)
	}
	call := cfg.Parent.Module.ModuleCalls[cfg.Path[len(cfg.Path)-1]]
	if call != nil && len(call.Providers) > 0 {
		for _, passed := range call.Providers {
			if passed.InChild == local {
				return resolveProviderKey(cfg.Parent, passed.InParent)
			}
		}
		return providerKey(cfg.Path, local)
	}
	if local.Alias != "" {
		return providerKey(cfg.Path, local)
	}
	// Implicit inheritance follows the provider, whatever local name the
	// parent gives it.
	provider := cfg.Module.ProviderForLocalName(local.LocalName)
	for name, required := range cfg.Parent.Module.RequiredProviders {
		if required.Type == provider {
			return resolveProviderKey(cfg.Parent, addrs.LocalProviderConfig{LocalName: name})
		}
	}
	if !usesProvider(cfg.Parent, local) {
		// As in OpenTofu, a default configuration is inherited only from a
		// parent that has one: otherwise the module's own is listed.
		return providerKey(cfg.Path, local)
	}
	return resolveProviderKey(cfg.Parent, local)
}

// usesProvider reports whether a module has the provider configuration
// local itself: a provider block, or resources that imply it.
func usesProvider(cfg *config.Config, local addrs.LocalProviderConfig) bool {
	if _, declared := cfg.Module.ProviderConfigs[local]; declared {
		return true
	}
	for _, res := range cfg.Module.Resources {
		if res.ProviderConfigAddr() == local {
			return true
		}
	}
	return false
}

// providerConfigs lists every provider configuration of the tree that is
// not resolved to another one: provider blocks, and the empty default
// configurations that required providers and resources imply.
func providerConfigs(root *config.Config, schemas *providers.Schemas) map[string]ProviderConfig {
	out := map[string]ProviderConfig{}
	root.DeepEach(func(cfg *config.Config) {
		mod := cfg.Module
		moduleAddr := ""
		if len(cfg.Path) > 0 {
			moduleAddr = cfg.Path.String()
		}
		for local, block := range mod.ProviderConfigs {
			provider := mod.ProviderForLocalName(local.LocalName)
			entry := ProviderConfig{
				Name:              local.LocalName,
				FullName:          provider.String(),
				Alias:             local.Alias,
				VersionConstraint: versionConstraint(mod, local.LocalName),
				ModuleAddress:     moduleAddr,
			}
			if providerSchema, ok := schemas.ProviderConfig(provider); ok && providerSchema.Block != nil {
				entry.Expressions = Expressions(block.Config, providerSchema.Block)
			}
			out[providerKey(cfg.Path, local)] = entry
		}
		addImplied := func(local addrs.LocalProviderConfig) {
			key := resolveProviderKey(cfg, local)
			if _, seen := out[key]; seen || key != providerKey(cfg.Path, local) {
				return
			}
			out[key] = ProviderConfig{
				Name:              local.LocalName,
				FullName:          mod.ProviderForLocalName(local.LocalName).String(),
				Alias:             local.Alias,
				VersionConstraint: versionConstraint(mod, local.LocalName),
				ModuleAddress:     moduleAddr,
			}
		}
		for name := range mod.RequiredProviders {
			addImplied(addrs.LocalProviderConfig{LocalName: name})
		}
		for _, res := range mod.Resources {
			addImplied(res.ProviderConfigAddr())
		}
	})
	return out
}

func versionConstraint(mod *config.Module, localName string) string {
	if required, ok := mod.RequiredProviders[localName]; ok {
		return required.Requirement.Source
	}
	return ""
}
