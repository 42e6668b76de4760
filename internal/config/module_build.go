package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
)

// newModule merges primary files into a Module, reporting duplicates, then
// applies override files on top.
func newModule(dir string, primary, override []*File) (*Module, hcl.Diagnostics) {
	mod := &Module{
		SourceDir:         dir,
		RequiredProviders: map[string]*RequiredProvider{},
		ProviderConfigs:   map[addrs.LocalProviderConfig]*Provider{},
		ProviderMetas:     map[string]*ProviderMeta{},
		Variables:         map[string]*Variable{},
		Locals:            map[string]*Local{},
		Outputs:           map[string]*Output{},
		ModuleCalls:       map[string]*ModuleCall{},
		Resources:         map[addrs.Resource]*Resource{},
		Checks:            map[string]*Check{},
	}
	var diags hcl.Diagnostics
	for _, file := range primary {
		diags = append(diags, mod.appendFile(file)...)
	}
	for _, file := range override {
		diags = append(diags, mod.mergeOverrideFile(file)...)
	}
	diags = append(diags, mod.resolveProviders()...)
	return mod, diags
}

func duplicateDiag(summary, detail string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}

func (m *Module) appendFile(file *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, req := range file.RequiredProviders {
		if prev, exists := m.RequiredProviders[req.Name]; exists {
			diags = append(diags, duplicateDiag("Duplicate required provider",
				fmt.Sprintf("Provider %s was already required at %s. Each provider local name can be declared only once.", req.Name, prev.DeclRange),
				req.DeclRange))
			continue
		}
		m.RequiredProviders[req.Name] = req
	}
	diags = append(diags, m.appendBackends(file)...)
	for _, encryption := range file.Encryptions {
		if m.Encryption != nil {
			diags = append(diags, duplicateDiag("Duplicate encryption configuration",
				fmt.Sprintf("A module may have only one encryption block; one was already given at %s.", m.Encryption.DeclRange),
				encryption.DeclRange))
			continue
		}
		m.Encryption = encryption
	}
	for _, meta := range file.ProviderMetas {
		if prev, exists := m.ProviderMetas[meta.Provider]; exists {
			diags = append(diags, duplicateDiag("Duplicate provider_meta block",
				fmt.Sprintf("A provider_meta block for provider %q was already declared at %s. Providers may only have one provider_meta block per module.", meta.Provider, prev.DeclRange),
				meta.DeclRange))
			continue
		}
		m.ProviderMetas[meta.Provider] = meta
	}
	for _, provider := range file.ProviderConfigs {
		diags = append(diags, m.appendProvider(provider)...)
	}
	for _, variable := range file.Variables {
		if prev, exists := m.Variables[variable.Name]; exists {
			diags = append(diags, duplicateDiag("Duplicate variable declaration",
				fmt.Sprintf("A variable named %q was already declared at %s. Variable names must be unique within a module.", variable.Name, prev.DeclRange),
				variable.DeclRange))
			continue
		}
		m.Variables[variable.Name] = variable
	}
	for _, local := range file.Locals {
		if prev, exists := m.Locals[local.Name]; exists {
			diags = append(diags, duplicateDiag("Duplicate local value definition",
				fmt.Sprintf("A local value named %q was already defined at %s. Local value names must be unique within a module.", local.Name, prev.DeclRange),
				local.DeclRange))
			continue
		}
		m.Locals[local.Name] = local
	}
	for _, output := range file.Outputs {
		if prev, exists := m.Outputs[output.Name]; exists {
			diags = append(diags, duplicateDiag("Duplicate output definition",
				fmt.Sprintf("An output named %q was already defined at %s. Output names must be unique within a module.", output.Name, prev.DeclRange),
				output.DeclRange))
			continue
		}
		m.Outputs[output.Name] = output
	}
	for _, call := range file.ModuleCalls {
		if prev, exists := m.ModuleCalls[call.Name]; exists {
			diags = append(diags, duplicateDiag("Duplicate module call",
				fmt.Sprintf("A module call named %q was already defined at %s. Module calls must have unique names within a module.", call.Name, prev.DeclRange),
				call.DeclRange))
			continue
		}
		m.ModuleCalls[call.Name] = call
	}
	for _, resource := range file.Resources {
		diags = append(diags, m.appendResource(resource)...)
	}
	for _, check := range file.Checks {
		diags = append(diags, m.appendCheck(check)...)
	}
	m.Moved = append(m.Moved, file.Moved...)
	m.Import = append(m.Import, file.Import...)
	m.Removed = append(m.Removed, file.Removed...)
	return diags
}

func (m *Module) appendBackends(file *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, backend := range append(append([]*Backend(nil), file.Backends...), file.CloudConfigs...) {
		var prev *Backend
		switch {
		case m.Backend != nil:
			prev = m.Backend
		case m.CloudConfig != nil:
			prev = m.CloudConfig
		}
		if prev != nil {
			diags = append(diags, duplicateDiag("Duplicate backend configuration",
				fmt.Sprintf("A module may have only one backend or cloud configuration. The state storage was already configured at %s.", prev.DeclRange),
				backend.DeclRange))
			continue
		}
		if backend.Type == "cloud" {
			m.CloudConfig = backend
		} else {
			m.Backend = backend
		}
	}
	return diags
}

func (m *Module) appendProvider(provider *Provider) hcl.Diagnostics {
	key := provider.Addr()
	prev, exists := m.ProviderConfigs[key]
	if !exists {
		m.ProviderConfigs[key] = provider
		return nil
	}
	detail := fmt.Sprintf("A default (non-aliased) provider configuration for %q was already given at %s. If multiple configurations are required, set the \"alias\" argument for alternative configurations.", provider.Name, prev.DeclRange)
	if provider.Alias != "" {
		detail = fmt.Sprintf("A provider configuration for %q with alias %q was already given at %s. Each configuration for the same provider must have a distinct alias.", provider.Name, provider.Alias, prev.DeclRange)
	}
	return hcl.Diagnostics{duplicateDiag("Duplicate provider configuration", detail, provider.DeclRange)}
}

func (m *Module) appendResource(resource *Resource) hcl.Diagnostics {
	key := resource.Addr()
	if prev, exists := m.Resources[key]; exists {
		kind := resource.Mode.BlockType()
		return hcl.Diagnostics{duplicateDiag(fmt.Sprintf("Duplicate %s %q configuration", kind, resource.Type),
			fmt.Sprintf("A %s %s named %q was already declared at %s. Resource names must be unique per type in each module.", resource.Type, kind, resource.Name, prev.DeclRange),
			resource.DeclRange)}
	}
	m.Resources[key] = resource
	return nil
}

func (m *Module) appendCheck(check *Check) hcl.Diagnostics {
	if prev, exists := m.Checks[check.Name]; exists {
		return hcl.Diagnostics{duplicateDiag("Duplicate check block",
			fmt.Sprintf("A check block named %q was already declared at %s. Check blocks must be unique within each module.", check.Name, prev.DeclRange),
			check.DeclRange)}
	}
	m.Checks[check.Name] = check
	if check.DataResource != nil {
		// A scoped data source shares the module's namespace of data sources.
		return m.appendResource(check.DataResource)
	}
	return nil
}

// resolveProviders sets each resource's provider source address from
// required_providers, or from the implied hashicorp/NAME when the local
// name is not declared, and checks that provider arguments name a
// configured or declared provider.
func (m *Module) resolveProviders() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, resource := range m.Resources {
		localName := resource.ProviderConfigAddr().LocalName
		resource.Provider = m.ProviderForLocalName(localName)
		if resource.ProviderConfigRef == nil {
			continue
		}
		_, declared := m.RequiredProviders[localName]
		_, configured := m.ProviderConfigs[resource.ProviderConfigAddr()]
		// An alias no block declares is reported by MissingProviderConfigs
		// when the configuration is planned or validated, as OpenTofu does.
		if !declared && !configured && resource.ProviderConfigRef.Alias == "" && localName != resource.Addr().ImpliedProvider() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Reference to undefined provider",
				Detail: fmt.Sprintf("There is no explicit declaration for local provider name %q in this module, so it is assumed to mean %s. Declare it in required_providers to say which provider you mean.",
					localName, addrs.ProviderForDisplay(resource.Provider)),
				Subject: resource.ProviderConfigRef.NameRange.Ptr(),
			})
		}
	}
	return diags
}

func (m *Module) hasConfigurationAlias(addr addrs.LocalProviderConfig) bool {
	req, ok := m.RequiredProviders[addr.LocalName]
	if !ok {
		return false
	}
	for _, alias := range req.ConfigurationAliases {
		if alias == addr {
			return true
		}
	}
	return false
}

// ProviderForLocalName returns the provider a local name refers to in this
// module.
func (m *Module) ProviderForLocalName(localName string) addrs.Provider {
	if req, ok := m.RequiredProviders[localName]; ok {
		return req.Type
	}
	return addrs.ImpliedProviderForUnqualifiedType(localName)
}
