package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// MissingProviderConfigs reports the provider configurations the tree uses
// that nothing provides, as OpenTofu's graph builder does before it walks
// anything: loading a configuration does not check them.
//
// A configuration is present in a module when the module has a provider
// block for it, when the module call passes one in (which must itself be
// present in the calling module, or the call is refused first: "missing
// provider"), and, in the root module, for each required_providers entry
// without an alias. A default (unaliased) configuration is inherited from
// the modules above and is implied in the root, so only an alias can be
// missing for a resource. forValidate adds, in the root module, the
// aliases of configuration_aliases, as OpenTofu's validate does so that a
// module can be validated on its own.
func MissingProviderConfigs(root *Config, forValidate bool) hcl.Diagnostics {
	present := map[string]bool{}
	var diags hcl.Diagnostics
	var visit func(c *Config) bool
	visit = func(c *Config) bool {
		for _, p := range c.Module.ProviderConfigs {
			present[addrs.AbsProviderConfig{Module: c.Path, Provider: c.Module.ProviderForLocalName(p.Name), Alias: p.Alias}.String()] = true
		}
		if c.Parent == nil {
			for _, req := range c.Module.RequiredProviders {
				present[addrs.AbsProviderConfig{Module: c.Path, Provider: req.Type}.String()] = true
				for _, alias := range req.ConfigurationAliases {
					if forValidate {
						present[addrs.AbsProviderConfig{Module: c.Path, Provider: req.Type, Alias: alias.Alias}.String()] = true
					}
				}
			}
		} else if d := passedPresent(c, present); d != nil {
			diags = append(diags, d)
			return false
		}
		for _, name := range sortedKeys(c.Children) {
			if !visit(c.Children[name]) {
				return false
			}
		}
		return true
	}
	if !visit(root) {
		return diags
	}
	root.DeepEach(func(c *Config) {
		resources := make([]*Resource, 0, len(c.Module.Resources))
		for _, r := range c.Module.Resources {
			resources = append(resources, r)
		}
		sort.Slice(resources, func(i, j int) bool { return resources[i].Addr().String() < resources[j].Addr().String() })
		for _, r := range resources {
			local := r.ProviderConfigAddr()
			if local.Alias == "" {
				continue
			}
			addr := addrs.AbsProviderConfig{Module: c.Path, Provider: r.Provider, Alias: local.Alias}
			if present[addr.String()] {
				continue
			}
			// OpenTofu names the resource's graph node: in a plan or apply,
			// the node that expands it.
			name := addrs.ConfigResource{Module: c.Path, Resource: r.Addr()}.String()
			if !forValidate {
				name += " (expand)"
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider configuration not present",
				Detail: fmt.Sprintf("To work with %s its original provider configuration at %s is required, but it has been removed. "+
					"This occurs when a provider configuration is removed while objects created by that provider still exist in the state. "+
					"Re-add the provider configuration to destroy %s, after which you can remove the provider configuration again.",
					name, addr, name),
			})
		}
	})
	return diags
}

// passedPresent records the configurations c's module call passes in,
// or reports the first one the calling module does not have. The address
// in the calling module is written with the provider the child knows the
// name by, as OpenTofu writes it.
func passedPresent(c *Config, present map[string]bool) *hcl.Diagnostic {
	call := c.Parent.Module.ModuleCalls[c.Path[len(c.Path)-1]]
	if call == nil {
		return nil
	}
	for _, passed := range call.Providers {
		provider := c.Module.ProviderForLocalName(passed.InChild.LocalName)
		inParent := addrs.AbsProviderConfig{Module: c.Parent.Path, Provider: provider, Alias: passed.InParent.Alias}
		if !present[inParent.String()] {
			return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "missing provider " + inParent.String()}
		}
		present[addrs.AbsProviderConfig{Module: c.Path, Provider: provider, Alias: passed.InChild.Alias}.String()] = true
	}
	return nil
}
