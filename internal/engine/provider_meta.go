package engine

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
)

// providerMeta is the value of the provider_meta block a module gives
// provider, decoded with the provider's provider_meta schema, which the
// provider receives with every plan, apply and read of the module's
// resources and data sources (module usage metadata). It is cty.NilVal,
// sent as null, when the module has no such block; a block for a provider without a
// provider_meta schema is an error, as in OpenTofu.
func (w *walker) providerMeta(module addrs.ModuleInstance, provider addrs.Provider) (cty.Value, diags.Diagnostics) {
	key := module.String() + "\x00" + provider.String()
	type cached struct{ val cty.Value }
	if hit, ok := w.providerMetas.Load(key); ok {
		return hit.(cached).val, nil
	}
	val, ds := w.evalProviderMeta(module, provider)
	if _, loaded := w.providerMetas.LoadOrStore(key, cached{val}); loaded {
		return val, nil // another instance reported the problem already
	}
	return val, ds
}

func (w *walker) evalProviderMeta(module addrs.ModuleInstance, provider addrs.Provider) (cty.Value, diags.Diagnostics) {
	null := cty.NilVal
	c := w.cfg.Descendant(module.Module())
	if c == nil {
		return null, nil
	}
	for _, meta := range c.Module.ProviderMetas {
		if c.Module.ProviderForLocalName(meta.Provider) != provider {
			continue
		}
		resp, ok := w.providers.schemas.Providers[provider]
		if !ok {
			return null, nil // the missing schema is reported where the provider is used
		}
		if resp.ProviderMeta.Block == nil {
			return null, diags.Diagnostics{{Severity: diags.Error,
				Summary: fmt.Sprintf("Provider %s doesn't support provider_meta", addrs.ProviderForDisplay(provider)),
				Detail:  "This module has a provider_meta block for a provider that declares no provider_meta schema, so the metadata cannot be sent. Remove the block.",
				Subject: meta.NameRange.Ptr()}}
		}
		val, hd := w.scopeIn(c, module, repetition{}, nil).EvalBlock(meta.Config, resp.ProviderMeta.Block.DecoderSpec())
		if hd.HasErrors() {
			return null, diags.Diagnostics{}.Append(hd)
		}
		val, _ = val.UnmarkDeep()
		return val, nil
	}
	return null, nil
}
