package journal

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/testing/providertest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugin.KillAll() // no provider outlives a failed test
	os.Exit(code)
}

// cloud drives a real tpf provider process whose objects are files under
// root, and records its objects through a journal over a SQLite store.
type cloud struct {
	t        *testing.T
	ctx      context.Context
	root     string
	store    *recordstore.Store
	journal  *Journal
	provider *plugin.Provider
	block    *schema.Block
	reader   *ProviderReader
}

const thingType = "tpf_thing"

func newCloud(t *testing.T) *cloud {
	t.Helper()
	mirror := providertest.Build(t)
	providerAddr, err := addrs.ParseProviderSource(mirror.Source("tpf"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	p, err := plugin.Launch(context.Background(), plugin.Config{
		Provider: providerAddr, Path: mirror.Executable("tpf"), Logger: hclog.NewNullLogger(),
		Schemas: plugin.NewSchemaStore(t.TempDir()),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	resp := p.GetProviderSchema(ctx)
	mustSucceed(t, "GetProviderSchema", resp.Diagnostics)
	identities := p.GetResourceIdentitySchemas(ctx)
	mustSucceed(t, "GetResourceIdentitySchemas", identities.Diagnostics)
	root := t.TempDir()
	config := nullObject(resp.Provider.Block, map[string]cty.Value{"root_dir": cty.StringVal(root)})
	mustSucceed(t, "ConfigureProvider", p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{TerraformVersion: "1.9.0", Config: config}).Diagnostics)

	st := openStore(t, newStorePath(t))
	j := New(st, Options{RunID: "01CRASHEDRUN"})
	t.Cleanup(func() { j.Close() })
	providerConfig := addrs.AbsProviderConfig{Provider: providerAddr}
	return &cloud{
		t: t, ctx: ctx, root: root, store: st, journal: j, provider: p,
		block: resp.ResourceTypes[thingType].Block,
		reader: &ProviderReader{
			Providers: map[string]providers.Interface{providerConfig.String(): p},
			Schemas: &providers.Schemas{
				Providers:  map[addrs.Provider]providers.GetProviderSchemaResponse{providerAddr: resp},
				Identities: map[addrs.Provider]providers.GetResourceIdentitySchemasResponse{providerAddr: identities},
			},
		},
	}
}

func (c *cloud) providerConfig() addrs.AbsProviderConfig {
	for key := range c.reader.Providers {
		cfg, _ := addrs.ParseAbsProviderConfigStr(key)
		return cfg
	}
	panic("no provider")
}

// remoteObject is an object as the provider last answered for it.
type remoteObject struct {
	value    cty.Value
	private  []byte
	identity cty.Value
}

// apply plans and applies a change from prior (nil: create) to config
// (null: delete) through the provider, as an apply walk would.
func (c *cloud) apply(prior *remoteObject, config cty.Value) *remoteObject {
	c.t.Helper()
	ty := c.block.ImpliedType()
	priorValue, priorPrivate, priorIdentity := cty.NullVal(ty), []byte(nil), cty.NilVal
	if prior != nil {
		priorValue, priorPrivate, priorIdentity = prior.value, prior.private, prior.identity
	}
	proposed := config
	if !config.IsNull() {
		proposed = proposedValue(c.block, priorValue, config)
	}
	plan := c.provider.PlanResourceChange(c.ctx, providers.PlanResourceChangeRequest{
		TypeName: thingType, PriorState: priorValue, ProposedNewState: proposed, Config: config,
		PriorPrivate: priorPrivate, PriorIdentity: priorIdentity,
	})
	mustSucceed(c.t, "PlanResourceChange", plan.Diagnostics)
	applied := c.provider.ApplyResourceChange(c.ctx, providers.ApplyResourceChangeRequest{
		TypeName: thingType, PriorState: priorValue, PlannedState: plan.PlannedState, Config: config,
		PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
	})
	mustSucceed(c.t, "ApplyResourceChange", applied.Diagnostics)
	if applied.NewState.IsNull() {
		return nil
	}
	return &remoteObject{value: applied.NewState, private: applied.Private, identity: applied.NewIdentity}
}

func (c *cloud) thingConfig(attrs map[string]cty.Value) cty.Value {
	return nullObject(c.block, attrs)
}

// encode is obj in its record form.
func (c *cloud) encode(obj *remoteObject) *states.ResourceInstanceObjectSrc {
	c.t.Helper()
	src, err := (&states.ResourceInstanceObject{Value: obj.value, Private: obj.private, Identity: obj.identity, Status: states.ObjectReady}).Encode(c.block.ImpliedType(), 0)
	if err != nil {
		c.t.Fatal(err)
	}
	return src
}

// cloudFileExists reports whether the provider's cloud has the object.
func (c *cloud) cloudFileExists(id string) bool {
	_, err := os.Stat(filepath.Join(c.root, thingType, id+".json"))
	return err == nil
}

// nullObject builds a value of block's type with attrs set and the rest null.
func nullObject(block *schema.Block, attrs map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, attrType := range block.ImpliedType().AttributeTypes() {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = cty.NullVal(attrType)
		}
	}
	return cty.ObjectVal(vals)
}

// proposedValue is the protocol's proposed new state at the top level:
// configured values, with computed attributes the configuration leaves
// null taken from prior (unknown on create).
func proposedValue(block *schema.Block, prior, config cty.Value) cty.Value {
	vals := config.AsValueMap()
	for name, attr := range block.Attributes {
		if !attr.Computed || !vals[name].IsNull() {
			continue
		}
		if prior.IsNull() {
			vals[name] = cty.UnknownVal(attr.ImpliedType())
		} else {
			vals[name] = prior.GetAttr(name)
		}
	}
	return cty.ObjectVal(vals)
}

func mustSucceed(t testing.TB, what string, d diags.Diagnostics) {
	t.Helper()
	if d.HasErrors() {
		t.Fatalf("%s: %v", what, d.Err())
	}
}
