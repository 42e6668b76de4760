package moduletest

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/providers"
)

// fakes are a run's mock_provider configurations (by provider
// configuration address) and override_resource / override_data blocks (by
// resource address); they put fakeProviders in front of the engine's
// provider processes.
type fakes struct {
	mocked    map[string]*MockProvider
	overrides map[string]*OverrideResource
}

var _ engine.ProviderWrapper = (*fakes)(nil)

func (f *fakes) WrapConfiguration(addr addrs.AbsProviderConfig, schemas providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface {
	m := f.mocked[addr.String()]
	if m == nil {
		return p
	}
	defaults := map[string]map[string]cty.Value{}
	for _, r := range m.Mocks {
		defaults[mockKey(r.Mode, r.Type)] = r.Defaults
	}
	return &fakeProvider{inner: p, schemas: schemas, mocked: true, origin: m.DeclRange,
		valuesFor: func(mode addrs.ResourceMode, typeName string) (map[string]cty.Value, bool) {
			return defaults[mockKey(mode, typeName)], true
		},
	}
}

func (f *fakes) WrapResource(resource addrs.ConfigResource, provider addrs.AbsProviderConfig, schemas providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface {
	o := f.overrides[resource.String()]
	if o == nil {
		if m := f.mocked[provider.String()]; m != nil {
			for _, mo := range m.Overrides {
				if mo.Addr.String() == resource.String() && mo.Mode == resource.Resource.Mode {
					o = mo
				}
			}
		}
	}
	if o == nil {
		return p
	}
	return &fakeProvider{inner: p, schemas: schemas, origin: o.DeclRange,
		valuesFor: func(mode addrs.ResourceMode, typeName string) (map[string]cty.Value, bool) {
			if mode != resource.Resource.Mode || typeName != resource.Resource.Type {
				return nil, false
			}
			return o.Values, true
		},
	}
}

func mockKey(mode addrs.ResourceMode, typeName string) string {
	return fmt.Sprintf("%d %s", mode, typeName)
}
