package plugin

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// testProvider is one of the providers in internal/testproviders.
type testProvider struct {
	name     string // also the prefix of its type names
	protocol int
	// resource is a simple managed resource type with a required "name".
	resource string
	// failSwitches: the resource has the "fail" attribute.
	failSwitches bool
}

var allTestProviders = []testProvider{
	{name: "tpf", protocol: 6, resource: "tpf_thing", failSwitches: true},
	{name: "tpf5", protocol: 5, resource: "tpf5_thing", failSwitches: true},
	{name: "tpsdk", protocol: 5, resource: "tpsdk_widget"},
}

// frameworkProviders are the providers built on terraform-plugin-framework,
// which share resources, data sources, ephemeral resources and functions.
var frameworkProviders = allTestProviders[:2]

// testProviderPath returns a test provider's executable, built by
// providertest, or skips the test when that provider is not in this tree.
func testProviderPath(t testing.TB, name string) string {
	t.Helper()
	mirror := providertest.Build(t)
	if !slices.Contains(mirror.Types(), name) {
		t.Skipf("test provider %s is not in this tree", name)
	}
	return mirror.Executable(name)
}

func TestMain(m *testing.M) {
	code := m.Run()
	KillAll() // no provider outlives a failed test
	os.Exit(code)
}

// launchTest starts a test provider with a schema cache private to the test
// and closes it when the test ends, whether it passed or not.
func launchTest(t *testing.T, tp testProvider, opts ...func(*Config)) *Provider {
	t.Helper()
	cfg := Config{
		Provider: addrs.Provider{Hostname: "registry.terraform.io", Namespace: "terrane", Type: tp.name},
		Path:     testProviderPath(t, tp.name),
		Logger:   hclog.NewNullLogger(),
		Schemas:  NewSchemaStore(t.TempDir()),
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	p, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatalf("launching %s: %v", tp.name, err)
	}
	t.Cleanup(func() { p.Close() })
	if p.ProtocolVersion() != tp.protocol {
		t.Fatalf("%s negotiated protocol %d, want %d", tp.name, p.ProtocolVersion(), tp.protocol)
	}
	return p
}

func noErrors(t *testing.T, what string, d diags.Diagnostics) {
	t.Helper()
	if d.HasErrors() {
		t.Fatalf("%s: %v", what, d.Err())
	}
}

// objectVal builds a value of the block's type: attrs as given, everything
// else null.
func objectVal(block *schema.Block, attrs map[string]cty.Value) cty.Value {
	ty := block.ImpliedType()
	vals := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, attrTy := range ty.AttributeTypes() {
		if v, ok := attrs[name]; ok {
			vals[name] = v
			continue
		}
		vals[name] = cty.NullVal(attrTy)
		if nested, ok := block.BlockTypes[name]; ok {
			switch nested.Nesting {
			case schema.NestingList:
				vals[name] = cty.ListValEmpty(nested.Block.ImpliedType())
			case schema.NestingSet:
				vals[name] = cty.SetValEmpty(nested.Block.ImpliedType())
			case schema.NestingMap:
				vals[name] = cty.MapValEmpty(nested.Block.ImpliedType())
			}
		}
	}
	return cty.ObjectVal(vals)
}

// proposedNew is the proposed new state of a create: the configuration,
// with the computed attributes it leaves null unknown (the protocol's rule
// for a create, at the top level, which is all these tests need).
func proposedNew(block *schema.Block, config cty.Value) cty.Value {
	vals := config.AsValueMap()
	for name, attr := range block.Attributes {
		if attr.Computed && vals[name].IsNull() {
			vals[name] = cty.UnknownVal(attr.ImpliedType())
		}
		if attr.WriteOnly {
			vals[name] = cty.NullVal(attr.ImpliedType())
		}
	}
	return cty.ObjectVal(vals)
}

// withTimeout returns a context cancelled after d or at the end of the test.
func withTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// validateThingRequest is a valid configuration of tp's simple resource.
func validateThingRequest(s providers.GetProviderSchemaResponse, tp testProvider) providers.ValidateResourceConfigRequest {
	block := s.ResourceTypes[tp.resource].Block
	return providers.ValidateResourceConfigRequest{
		TypeName: tp.resource,
		Config:   objectVal(block, map[string]cty.Value{"name": cty.StringVal("x")}),
	}
}
