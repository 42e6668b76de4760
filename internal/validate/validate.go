package validate

import (
	"context"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// parallelism bounds how many blocks are checked at once; the provider
// calls are cheap but each holds a gRPC stream.
const parallelism = 10

// Provider is a started provider, unconfigured, and its schema.
type Provider struct {
	Interface providers.Interface
	Schema    providers.GetProviderSchemaResponse
}

// Providers are the providers a configuration uses, by address. The
// blocks of a provider missing here are checked against the language's
// rules only.
type Providers map[addrs.Provider]*Provider

// Config checks every module of cfg with the providers given.
func Config(ctx context.Context, cfg *config.Config, running Providers) diags.Diagnostics {
	if missing := config.MissingProviderConfigs(cfg, true); missing.HasErrors() {
		// As OpenTofu's validate, whose graph cannot be built then.
		return diags.Diagnostics{}.Append(missing)
	}
	r := &report{}
	// Expressions whose references are wrong are still evaluated, with
	// unknown values for those references, so that their other mistakes
	// are reported too.
	r.addHCL(config.ValidateReferences(cfg))
	args := &callArguments{values: map[string]map[string]cty.Value{}}
	cfg.DeepEach(func(c *config.Config) {
		m := newModuleValidator(c, running, r, args)
		m.validateVariables()
		m.validateValues()
		m.validateBlocks(ctx)
	})
	return r.diags
}

// report collects diagnostics from concurrent checks, each once: a
// reference the static check refused may be refused again when its
// expression is evaluated.
type report struct {
	mu    sync.Mutex
	diags diags.Diagnostics
	seen  map[string]bool
}

func (r *report) addHCL(hclDiags hcl.Diagnostics) {
	r.add(diags.Diagnostics{}.Append(hclDiags))
}

func (r *report) add(ds diags.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	for _, d := range ds {
		key := d.String()
		if d.Subject != nil {
			key += "@" + d.Subject.String()
		}
		if !r.seen[key] {
			r.seen[key] = true
			r.diags = append(r.diags, d)
		}
	}
}
