package addrs

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// LocalProviderConfig is a provider configuration as a module refers to it:
// its local name from required_providers and, for a non-default
// configuration, an alias: "aws" or "aws.west".
type LocalProviderConfig struct {
	LocalName string
	Alias     string
}

func (c LocalProviderConfig) String() string {
	if c.Alias == "" {
		return c.LocalName
	}
	return c.LocalName + "." + c.Alias
}

func (c LocalProviderConfig) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (c LocalProviderConfig) UniqueKey() UniqueKey { return c }

// ParseLocalProviderConfig reads NAME or NAME.ALIAS from a traversal, as
// written in a resource's provider argument or a module's providers map.
func ParseLocalProviderConfig(traversal hcl.Traversal) (LocalProviderConfig, hcl.Diagnostics) {
	const detail = "A provider configuration reference is a provider local name, optionally followed by a dot and an alias, like aws or aws.west."
	if len(traversal) < 1 || len(traversal) > 2 {
		return LocalProviderConfig{}, hcl.Diagnostics{errorDiag("Invalid provider configuration reference", detail, traversal.SourceRange())}
	}
	ret := LocalProviderConfig{LocalName: traversal.RootName()}
	if len(traversal) == 2 {
		aliasStep, ok := traversal[1].(hcl.TraverseAttr)
		if !ok {
			return LocalProviderConfig{}, hcl.Diagnostics{errorDiag("Invalid provider configuration reference",
				"The provider alias must follow the provider local name, separated by a dot.", traversal[1].SourceRange())}
		}
		ret.Alias = aliasStep.Name
	}
	return ret, nil
}

// AbsProviderConfig is a provider configuration in the module tree, named by
// its provider source: provider["registry.opentofu.org/hashicorp/aws"].west
// or module.net.provider["registry.opentofu.org/hashicorp/aws"]. This is the
// form state records and plans use.
type AbsProviderConfig struct {
	Module   Module
	Provider Provider
	Alias    string
}

func (c AbsProviderConfig) String() string {
	prefix := ""
	if !c.Module.IsRoot() {
		prefix = c.Module.String() + "."
	}
	str := prefix + "provider[" + strconv.Quote(c.Provider.String()) + "]"
	if c.Alias != "" {
		str += "." + c.Alias
	}
	return str
}

type absProviderConfigKey string

func (absProviderConfigKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (c AbsProviderConfig) UniqueKey() UniqueKey { return absProviderConfigKey(c.String()) }

// Instance returns the address of one instance of c, for configurations
// with for_each (OpenTofu's provider iteration); NoKey otherwise.
func (c AbsProviderConfig) Instance(key InstanceKey) AbsProviderConfigInstance {
	return AbsProviderConfigInstance{Config: c, Key: key}
}

// ParseAbsProviderConfigStr parses an address such as
// module.a.provider["registry.opentofu.org/hashicorp/aws"].west.
func ParseAbsProviderConfigStr(str string) (AbsProviderConfig, hcl.Diagnostics) {
	inst, diags := ParseAbsProviderConfigInstanceStr(str)
	if diags.HasErrors() {
		return AbsProviderConfig{}, diags
	}
	if inst.Key != NoKey {
		return AbsProviderConfig{}, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider configuration address",
			Detail:   fmt.Sprintf("Expected a provider configuration without an instance key, but %s names one instance.", inst),
		}}
	}
	return inst.Config, nil
}

// AbsProviderConfigInstance is one instance of a provider configuration
// that uses for_each: provider["registry.opentofu.org/hashicorp/aws"].by_region["eu"].
// Configurations without for_each have the single instance NoKey.
type AbsProviderConfigInstance struct {
	Config AbsProviderConfig
	Key    InstanceKey
}

func (c AbsProviderConfigInstance) String() string {
	return c.Config.String() + instanceKeyString(c.Key)
}

type absProviderConfigInstanceKey string

func (absProviderConfigInstanceKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (c AbsProviderConfigInstance) UniqueKey() UniqueKey {
	return absProviderConfigInstanceKey(c.String())
}

// ParseAbsProviderConfigInstanceStr parses a provider configuration
// address, with an optional instance key after the alias.
func ParseAbsProviderConfigInstanceStr(str string) (AbsProviderConfigInstance, hcl.Diagnostics) {
	traversal, diags := parseTraversalStr(str)
	if diags.HasErrors() {
		return AbsProviderConfigInstance{}, diags
	}
	module, remain, diags := parseModuleInstancePrefix(traversal)
	if diags.HasErrors() {
		return AbsProviderConfigInstance{}, diags
	}
	for _, step := range module {
		if step.Key != NoKey {
			return AbsProviderConfigInstance{}, hcl.Diagnostics{errorDiag("Invalid provider configuration address",
				"Provider configurations belong to a module, not to one of its instances: remove the index "+step.Key.String()+".", traversal.SourceRange())}
		}
	}
	const detail = `A provider configuration address looks like provider["HOST/NAMESPACE/TYPE"], optionally followed by .ALIAS.`
	if len(remain) < 2 || traverserName(remain[0]) != "provider" {
		return AbsProviderConfigInstance{}, hcl.Diagnostics{errorDiag("Invalid provider configuration address", detail, traversal.SourceRange())}
	}
	sourceStep, ok := remain[1].(hcl.TraverseIndex)
	if !ok || sourceStep.Key.Type() != cty.String || sourceStep.Key.IsNull() {
		return AbsProviderConfigInstance{}, hcl.Diagnostics{errorDiag("Invalid provider configuration address", detail, remain[1].SourceRange())}
	}
	provider, err := ParseProviderSource(sourceStep.Key.AsString())
	if err != nil {
		return AbsProviderConfigInstance{}, hcl.Diagnostics{errorDiag("Invalid provider source in provider configuration address", err.Error(), sourceStep.SrcRange)}
	}
	ret := AbsProviderConfigInstance{Config: AbsProviderConfig{Module: module.Module(), Provider: provider}}
	remain = remain[2:]
	if len(remain) > 0 {
		aliasStep, ok := remain[0].(hcl.TraverseAttr)
		if !ok {
			return AbsProviderConfigInstance{}, hcl.Diagnostics{errorDiag("Invalid provider configuration address", detail, remain[0].SourceRange())}
		}
		ret.Config.Alias = aliasStep.Name
		remain = remain[1:]
	}
	if len(remain) > 0 && ret.Config.Alias != "" {
		key, keyDiags := instanceKeyFromTraverser(remain[0])
		if keyDiags.HasErrors() {
			return AbsProviderConfigInstance{}, keyDiags
		}
		if _, isIndex := remain[0].(hcl.TraverseIndex); isIndex {
			ret.Key = key
			remain = remain[1:]
		}
	}
	if len(remain) > 0 {
		return AbsProviderConfigInstance{}, hcl.Diagnostics{errorDiag("Invalid provider configuration address",
			"Unexpected extra operators after the provider configuration address.", remain.SourceRange())}
	}
	return ret, nil
}
