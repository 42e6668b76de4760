package moduletest

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
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
		check: func(schemas providers.GetProviderSchemaResponse) diags.Diagnostics {
			return checkMockTypes(m, addr, schemas)
		},
	}
}

func (f *fakes) WrapResource(resource addrs.ConfigResource, provider addrs.AbsProviderConfig, schemas providers.GetProviderSchemaResponse, p providers.Interface) providers.Interface {
	o := f.overrides[resource.String()]
	if o == nil {
		if m := f.mocked[provider.String()]; m != nil {
			for _, mo := range m.Overrides {
				if mo.Addr.String() == resource.String() {
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

// checkMockTypes reports mock_resource and mock_data blocks for types the
// provider does not have: their defaults would apply to nothing.
func checkMockTypes(m *MockProvider, addr addrs.AbsProviderConfig, schemas providers.GetProviderSchemaResponse) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, r := range m.Mocks {
		types, kind, block := schemas.ResourceTypes, "resource type", "mock_resource"
		if r.Mode == addrs.DataResourceMode {
			types, kind, block = schemas.DataSources, "data source", "mock_data"
		}
		if _, ok := types[r.Type]; !ok {
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: fmt.Sprintf("Unknown %s in %s block", kind, block),
				Detail:  fmt.Sprintf("Provider %s has no %s %q, so this mock would apply to nothing. Check the type name against the provider's schema.", addrs.ProviderForDisplay(addr.Provider), kind, r.Type),
				Subject: r.DeclRange.Ptr()})
		}
	}
	return ds
}
