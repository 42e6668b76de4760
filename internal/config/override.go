package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

func missingBaseDiag(what string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Missing base " + what + " to override",
		Detail:   fmt.Sprintf("There is no %s with this name in the module's primary configuration files. An override file can only override something declared in a primary file.", what),
		Subject:  rng.Ptr(),
	}
}

// mergeOverrideFile applies an override file to the module.
func (m *Module) mergeOverrideFile(file *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, req := range file.RequiredProviders {
		m.RequiredProviders[req.Name] = req
	}
	if len(file.Backends) > 0 {
		m.Backend, m.CloudConfig = file.Backends[0], nil
	}
	if len(file.CloudConfigs) > 0 {
		m.CloudConfig, m.Backend = file.CloudConfigs[0], nil
	}
	for _, encryption := range file.Encryptions {
		if m.Encryption == nil {
			m.Encryption = encryption
			continue
		}
		m.Encryption = &Encryption{Config: mergeBodies(m.Encryption.Config, encryption.Config), DeclRange: m.Encryption.DeclRange}
	}
	for _, meta := range file.ProviderMetas {
		m.ProviderMetas[meta.Provider] = meta
	}
	for _, provider := range file.ProviderConfigs {
		base, ok := m.ProviderConfigs[provider.Addr()]
		if !ok {
			diags = append(diags, missingBaseDiag("provider configuration", provider.DeclRange))
			continue
		}
		base.Config = mergeBodies(base.Config, provider.Config)
		if provider.Version.Source != "" {
			base.Version = provider.Version
		}
		if provider.ForEach != nil {
			base.ForEach = provider.ForEach
		}
	}
	for _, variable := range file.Variables {
		base, ok := m.Variables[variable.Name]
		if !ok {
			diags = append(diags, missingBaseDiag("variable declaration", variable.DeclRange))
			continue
		}
		overrideVariable(base, variable)
	}
	for _, local := range file.Locals {
		base, ok := m.Locals[local.Name]
		if !ok {
			diags = append(diags, missingBaseDiag("local value definition", local.DeclRange))
			continue
		}
		base.Expr = local.Expr
	}
	for _, output := range file.Outputs {
		base, ok := m.Outputs[output.Name]
		if !ok {
			diags = append(diags, missingBaseDiag("output definition", output.DeclRange))
			continue
		}
		overrideOutput(base, output)
	}
	diags = append(diags, m.mergeOverrideCalls(file)...)
	diags = append(diags, m.mergeOverrideChecks(file)...)
	diags = append(diags, refusedInOverrideFile(file)...)
	for _, resource := range file.Resources {
		base, ok := m.Resources[resource.Addr()]
		if !ok {
			diags = append(diags, missingBaseDiag("resource", resource.DeclRange))
			continue
		}
		overrideResource(base, resource)
	}
	return diags
}

func overrideVariable(base, over *Variable) {
	if over.DescriptionSet {
		base.Description, base.DescriptionSet = over.Description, true
	}
	if over.Default != nil {
		base.Default = over.Default
	}
	if over.TypeSet {
		base.Type, base.TypeSet = over.Type, true
	}
	if over.SensitiveSet {
		base.Sensitive, base.SensitiveSet = over.Sensitive, true
	}
	if over.NullableSet {
		base.Nullable, base.NullableSet = over.Nullable, true
	}
	if over.EphemeralSet {
		base.Ephemeral, base.EphemeralSet = over.Ephemeral, true
	}
	if over.ConstSet {
		base.Const, base.ConstSet = over.Const, true
	}
	if len(over.Validations) > 0 {
		base.Validations = over.Validations
	}
	if over.DeprecatedMessage != "" {
		base.DeprecatedMessage = over.DeprecatedMessage
	}
}

func overrideOutput(base, over *Output) {
	if over.Expr != nil {
		base.Expr = over.Expr
	}
	if over.Description != "" {
		base.Description = over.Description
	}
	if over.Sensitive {
		base.Sensitive = true
	}
	if over.DependsOn != nil {
		base.DependsOn = over.DependsOn
	}
	if len(over.Preconditions) > 0 {
		base.Preconditions = over.Preconditions
	}
	if over.DeprecatedMessage != "" {
		base.DeprecatedMessage = over.DeprecatedMessage
	}
}

// mergeOverrideChecks applies a check block of an override file to the
// check of the same name: its assertions replace the base's, and its data
// block overrides the base's like a resource.
func (m *Module) mergeOverrideChecks(file *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, check := range file.Checks {
		base, ok := m.Checks[check.Name]
		if !ok {
			diags = append(diags, missingBaseDiag("check block", check.DeclRange))
			continue
		}
		if len(check.Asserts) > 0 {
			base.Asserts = check.Asserts
		}
		if check.DataResource != nil && base.DataResource != nil && check.DataResource.Addr() == base.DataResource.Addr() {
			overrideResource(base.DataResource, check.DataResource)
		} else if check.DataResource != nil {
			diags = append(diags, missingBaseDiag("data block of the check", check.DataResource.DeclRange))
		}
	}
	return diags
}

// refusedInOverrideFile reports moved, import and removed blocks in an
// override file, which OpenTofu refuses: they record history and intent,
// which an override cannot meaningfully replace.
func refusedInOverrideFile(file *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	refuse := func(kind, what string, rng hcl.Range) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Cannot override '%s' blocks", kind),
			Detail:   fmt.Sprintf("%s can appear only in normal files, not in override files.", what),
			Subject:  rng.Ptr(),
		})
	}
	for _, moved := range file.Moved {
		refuse("moved", "Records of moved objects", moved.DeclRange)
	}
	for _, imp := range file.Import {
		refuse("import", "Import blocks", imp.DeclRange)
	}
	for _, removed := range file.Removed {
		refuse("removed", "Removed blocks", removed.DeclRange)
	}
	return diags
}

func (m *Module) mergeOverrideCalls(file *File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, call := range file.ModuleCalls {
		base, ok := m.ModuleCalls[call.Name]
		if !ok {
			diags = append(diags, missingBaseDiag("module call", call.DeclRange))
			continue
		}
		if call.SourceAddr != "" || call.SourceExpr != nil {
			base.SourceAddr, base.SourceRange, base.SourceExpr = call.SourceAddr, call.SourceRange, call.SourceExpr
		}
		if call.Version.Source != "" || call.VersionExpr != nil {
			base.Version, base.VersionExpr = call.Version, call.VersionExpr
		}
		if call.Count != nil {
			base.Count, base.ForEach = call.Count, nil
		}
		if call.ForEach != nil {
			base.ForEach, base.Count = call.ForEach, nil
		}
		if call.Providers != nil {
			base.Providers = call.Providers
		}
		if call.DependsOn != nil {
			base.DependsOn = call.DependsOn
		}
		base.Config = mergeBodies(base.Config, call.Config)
	}
	return diags
}

func overrideResource(base, over *Resource) {
	base.Config = mergeBodies(base.Config, over.Config)
	if over.Count != nil {
		base.Count, base.ForEach = over.Count, nil
	}
	if over.ForEach != nil {
		base.ForEach, base.Count = over.ForEach, nil
	}
	if over.Enabled != nil {
		base.Enabled = over.Enabled
	}
	if over.ProviderConfigRef != nil {
		base.ProviderConfigRef = over.ProviderConfigRef
	}
	if over.DependsOn != nil {
		base.DependsOn = over.DependsOn
	}
	if len(over.Preconditions) > 0 {
		base.Preconditions = over.Preconditions
	}
	if len(over.Postconditions) > 0 {
		base.Postconditions = over.Postconditions
	}
	if over.Managed == nil || base.Managed == nil {
		return
	}
	if over.Managed.CreateBeforeDestroySet {
		base.Managed.CreateBeforeDestroy, base.Managed.CreateBeforeDestroySet = over.Managed.CreateBeforeDestroy, true
	}
	if over.Managed.PreventDestroy != nil {
		base.Managed.PreventDestroy = over.Managed.PreventDestroy
	}
	if over.Managed.Destroy != nil {
		base.Managed.Destroy = over.Managed.Destroy
	}
	if over.Managed.IgnoreChanges != nil || over.Managed.IgnoreAllChanges {
		base.Managed.IgnoreChanges, base.Managed.IgnoreAllChanges = over.Managed.IgnoreChanges, over.Managed.IgnoreAllChanges
	}
	if over.Managed.ReplaceTriggeredBy != nil {
		base.Managed.ReplaceTriggeredBy = over.Managed.ReplaceTriggeredBy
	}
}
