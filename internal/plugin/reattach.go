package plugin

import (
	"encoding/json"
	"fmt"
	"net"
	"os"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

// EnvReattachProviders names providers a developer started by hand (in a
// debugger) for Terrane to use instead of launching them, in Terraform's
// format: a JSON object keyed by provider source address.
const EnvReattachProviders = "TF_REATTACH_PROVIDERS"

// ReattachConfig is one provider's entry in TF_REATTACH_PROVIDERS.
type ReattachConfig struct {
	Protocol        string
	ProtocolVersion int
	Pid             int
	// Test providers are not killed when Terrane is done with them: the
	// developer who started them ends them.
	Test bool
	Addr struct {
		Network string
		String  string
	}
}

// ParseReattachProviders reads a TF_REATTACH_PROVIDERS value. Keys are
// provider source addresses in any form required_providers accepts.
func ParseReattachProviders(value string) (map[addrs.Provider]ReattachConfig, diags.Diagnostics) {
	if value == "" {
		return nil, nil
	}
	var raw map[string]ReattachConfig
	if err := json.Unmarshal([]byte(value), &raw); err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Invalid "+EnvReattachProviders,
			"The environment variable %s is not a JSON object of provider reattach settings: %s. Copy it again from the provider's debug output, or unset it.", EnvReattachProviders, err)}
	}
	out := make(map[addrs.Provider]ReattachConfig, len(raw))
	var problems diags.Diagnostics
	for key, cfg := range raw {
		provider, err := addrs.ParseProviderSource(key)
		if err != nil {
			problems = problems.Append(diags.Errorf("Invalid "+EnvReattachProviders,
				"The key %q in %s is not a provider source address: %s.", key, EnvReattachProviders, err))
			continue
		}
		out[provider] = cfg
	}
	return out, problems
}

// reattachFor returns the TF_REATTACH_PROVIDERS entry for provider, if any.
// An entry on registry.terraform.io also serves the same provider on
// Terrane's default registry, as providers print their Terraform address.
func reattachFor(provider addrs.Provider) (*ReattachConfig, diags.Diagnostics) {
	if provider.IsZero() {
		return nil, nil
	}
	all, problems := ParseReattachProviders(os.Getenv(EnvReattachProviders))
	if problems.HasErrors() {
		return nil, problems
	}
	if cfg, ok := all[provider]; ok {
		return &cfg, nil
	}
	for candidate, cfg := range all {
		if addrs.IsDefaultRegistryEquivalent(candidate, provider) {
			return &cfg, nil
		}
	}
	return nil, nil
}

func (r *ReattachConfig) goPlugin() (*goplugin.ReattachConfig, error) {
	var addr net.Addr
	var err error
	switch r.Addr.Network {
	case "unix":
		addr, err = net.ResolveUnixAddr("unix", r.Addr.String)
	case "tcp":
		addr, err = net.ResolveTCPAddr("tcp", r.Addr.String)
	default:
		return nil, fmt.Errorf("unknown network %q (want unix or tcp)", r.Addr.Network)
	}
	if err != nil {
		return nil, err
	}
	protocol := goplugin.Protocol(r.Protocol)
	if protocol == "" {
		protocol = goplugin.ProtocolGRPC
	}
	return &goplugin.ReattachConfig{
		Protocol:        protocol,
		ProtocolVersion: r.ProtocolVersion,
		Addr:            addr,
		Pid:             r.Pid,
		Test:            r.Test,
	}, nil
}
