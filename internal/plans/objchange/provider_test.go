package objchange_test

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
	"github.com/terrane/terrane/internal/plans"
	"github.com/terrane/terrane/internal/plans/objchange"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/testing/providertest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugin.KillAll() // no provider outlives a failed test
	os.Exit(code)
}

// session is one running, configured test provider and its schemas.
type session struct {
	t       *testing.T
	ctx     context.Context
	p       providers.Interface
	schemas providers.GetProviderSchemaResponse
}

func launch(t *testing.T, name string) *session {
	t.Helper()
	mirror := providertest.Build(t)
	if !slices.Contains(mirror.Types(), name) {
		t.Skipf("test provider %s is not in this tree", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	p, err := plugin.Launch(ctx, plugin.Config{
		Provider: addrs.Provider{Hostname: providertest.Hostname, Namespace: "terrane", Type: name},
		Path:     mirror.Executable(name),
		Logger:   hclog.NewNullLogger(),
		Schemas:  plugin.NewSchemaStore(t.TempDir()),
	})
	if err != nil {
		t.Fatalf("launching %s: %v", name, err)
	}
	t.Cleanup(func() { p.Close() })
	s := &session{t: t, ctx: ctx, p: p, schemas: p.GetProviderSchema(ctx)}
	if s.schemas.Diagnostics.HasErrors() {
		t.Fatalf("GetProviderSchema: %v", s.schemas.Diagnostics.Err())
	}
	configured := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{
		Config: config(s.schemas.Provider.Block, map[string]cty.Value{"root_dir": cty.StringVal(t.TempDir())}),
	})
	if configured.Diagnostics.HasErrors() {
		t.Fatalf("ConfigureProvider: %v", configured.Diagnostics.Err())
	}
	return s
}

func (s *session) block(typeName string) *schema.Block {
	b := s.schemas.ResourceTypes[typeName].Block
	if b == nil {
		s.t.Fatalf("%s has no schema", typeName)
	}
	return b
}

// config builds a configuration value as the decoder would: the given
// attributes and blocks, every other attribute null and every other nested
// block type absent.
func config(b *schema.Block, set map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, attr := range b.Attributes {
		vals[name] = cty.NullVal(attr.ImpliedType())
	}
	for name, nested := range b.BlockTypes {
		vals[name] = nested.EmptyValue()
	}
	for name, v := range set {
		vals[name] = v
	}
	return cty.ObjectVal(vals)
}

// change is one resource instance's plan and apply, checked by the rules
// the engine applies to every provider answer.
type change struct {
	plan    providers.PlanResourceChangeResponse
	planned cty.Value
	errs    []error // from the first check that failed
	applied cty.Value
	private []byte
}

// planAndApply plans config against prior the way the engine does and, if
// the plan keeps the rules, applies it.
func (s *session) planAndApply(typeName string, prior, cfg cty.Value, priorPrivate []byte) change {
	s.t.Helper()
	b := s.block(typeName)
	plan := s.p.PlanResourceChange(s.ctx, providers.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: prior, Config: cfg, PriorPrivate: priorPrivate,
		ProposedNewState: objchange.ProposedNew(b, prior, cfg),
	})
	if plan.Diagnostics.HasErrors() {
		s.t.Fatalf("planning %s: %v", typeName, plan.Diagnostics.Err())
	}
	c := change{plan: plan, planned: plan.PlannedState}
	if plan.LegacyTypeSystem {
		c.planned = objchange.NormalizeObjectFromLegacySDK(c.planned, b)
	}
	if c.errs = objchange.AssertPlanValid(b, prior, cfg, c.planned); len(c.errs) > 0 {
		return c
	}
	// Apply plans again, as the engine does, and holds the new plan to
	// the saved one.
	replan := s.p.PlanResourceChange(s.ctx, providers.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: prior, Config: cfg, PriorPrivate: priorPrivate,
		ProposedNewState: objchange.ProposedNew(b, prior, cfg),
	})
	replanned := replan.PlannedState
	if replan.LegacyTypeSystem {
		replanned = objchange.NormalizeObjectFromLegacySDK(replanned, b)
	}
	if c.errs = objchange.AssertPlannedValueValid(b, c.planned, replanned); len(c.errs) > 0 {
		return c
	}
	applied := s.p.ApplyResourceChange(s.ctx, providers.ApplyResourceChangeRequest{
		TypeName: typeName, PriorState: prior, PlannedState: c.planned, Config: cfg,
		PlannedPrivate: plan.PlannedPrivate,
	})
	if applied.Diagnostics.HasErrors() {
		s.t.Fatalf("applying %s: %v", typeName, applied.Diagnostics.Err())
	}
	c.applied, c.private = applied.NewState, applied.Private
	if applied.LegacyTypeSystem {
		c.applied = objchange.NormalizeObjectFromLegacySDK(c.applied, b)
	}
	c.errs = append(objchange.AssertObjectCompatible(b, c.planned, c.applied), objchange.AssertWhollyKnown(c.applied)...)
	return c
}

// TestRealProvidersKeepTheRules runs create, update and an unchanged
// re-plan through each SDK's provider: a provider that follows the
// protocol must pass every check, and the engine's own proposal must lead
// it to plan no change when nothing changed.
func TestRealProvidersKeepTheRules(t *testing.T) {
	str := cty.StringVal
	obj := cty.ObjectVal
	tests := []struct {
		provider, typeName string
		create, update     map[string]cty.Value
	}{
		{
			provider: "tpf", typeName: "tpf_thing",
			create: map[string]cty.Value{"name": str("a"), "description": str("first"),
				"set_of_strings": cty.SetVal([]cty.Value{str("x"), str("y")})},
			update: map[string]cty.Value{"name": str("a"), "description": str("second"), "size_class": str("large"),
				"set_of_strings": cty.SetVal([]cty.Value{str("y")})},
		},
		{
			provider: "tpf5", typeName: "tpf5_thing",
			create: map[string]cty.Value{"name": str("a"), "tags": cty.MapVal(map[string]cty.Value{"k": str("v")})},
			update: map[string]cty.Value{"name": str("a"), "tags": cty.MapVal(map[string]cty.Value{"k": str("w")})},
		},
		{
			provider: "tpf", typeName: "tpf_blocks",
			create: map[string]cty.Value{"name": str("b"),
				"rule": cty.ListVal([]cty.Value{obj(map[string]cty.Value{"action": str("allow"), "priority": cty.NullVal(cty.Number)})}),
				"tag": cty.SetVal([]cty.Value{
					obj(map[string]cty.Value{"key": str("a"), "value": str("1")}),
					obj(map[string]cty.Value{"key": str("b"), "value": cty.NullVal(cty.String)}),
				}),
				"settings": obj(map[string]cty.Value{"mode": cty.NullVal(cty.String), "level": cty.NullVal(cty.Number)})},
			update: map[string]cty.Value{"name": str("b"),
				"rule": cty.ListVal([]cty.Value{
					obj(map[string]cty.Value{"action": str("allow"), "priority": cty.NumberIntVal(1)}),
					obj(map[string]cty.Value{"action": str("deny"), "priority": cty.NullVal(cty.Number)}),
				}),
				"tag":      cty.SetVal([]cty.Value{obj(map[string]cty.Value{"key": str("b"), "value": cty.NullVal(cty.String)})}),
				"settings": obj(map[string]cty.Value{"mode": cty.NullVal(cty.String), "level": cty.NumberIntVal(2)})},
		},
		{
			provider: "tpf", typeName: "tpf_nested",
			create: map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{obj(map[string]cty.Value{"name": str("l"), "value": cty.NullVal(cty.String)})}),
				"map":  cty.MapVal(map[string]cty.Value{"web": obj(map[string]cty.Value{"port": cty.NumberIntVal(80), "protocol": cty.NullVal(cty.String)})}),
			},
			update: map[string]cty.Value{
				"list": cty.ListVal([]cty.Value{obj(map[string]cty.Value{"name": str("l2"), "value": cty.NullVal(cty.String)})}),
				"map":  cty.MapVal(map[string]cty.Value{"web": obj(map[string]cty.Value{"port": cty.NumberIntVal(8080), "protocol": cty.NullVal(cty.String)})}),
			},
		},
		{
			provider: "tpsdk", typeName: "tpsdk_widget",
			create: map[string]cty.Value{"name": str("w"),
				"port": cty.SetVal([]cty.Value{obj(map[string]cty.Value{"number": cty.NumberIntVal(80), "protocol": cty.NullVal(cty.String)})})},
			update: map[string]cty.Value{"name": str("w"), "size": cty.NumberIntVal(3),
				"port": cty.SetVal([]cty.Value{
					obj(map[string]cty.Value{"number": cty.NumberIntVal(80), "protocol": cty.NullVal(cty.String)}),
					obj(map[string]cty.Value{"number": cty.NumberIntVal(443), "protocol": str("udp")}),
				})},
		},
		{
			provider: "tpraw", typeName: "tpraw_group",
			create: map[string]cty.Value{"name": str("g"),
				"setting": cty.MapVal(map[string]cty.Value{"tier": obj(map[string]cty.Value{"value": str("gold")})})},
			update: map[string]cty.Value{"name": str("g2"),
				"network": obj(map[string]cty.Value{"cidr": str("10.0.0.0/8"), "mode": cty.NullVal(cty.String)})},
		},
	}
	for _, test := range tests {
		t.Run(test.typeName, func(t *testing.T) {
			s := launch(t, test.provider)
			b := s.block(test.typeName)

			created := s.planAndApply(test.typeName, cty.NullVal(b.ImpliedType()), config(b, test.create), nil)
			mustKeepRules(t, "create", created.errs)
			if got := objchange.ActionForChange(cty.NullVal(b.ImpliedType()), created.planned); got != plans.Create {
				t.Errorf("create planned as %s", got)
			}
			updated := s.planAndApply(test.typeName, created.applied, config(b, test.update), created.private)
			mustKeepRules(t, "update", updated.errs)
			if got := objchange.ActionForChange(created.applied, updated.planned); got != plans.Update {
				t.Errorf("update planned as %s", got)
			}
			cfg := config(b, test.update)
			again := s.p.PlanResourceChange(s.ctx, providers.PlanResourceChangeRequest{
				TypeName: test.typeName, PriorState: updated.applied, Config: cfg, PriorPrivate: updated.private,
				ProposedNewState: objchange.ProposedNew(b, updated.applied, cfg),
			})
			planned := again.PlannedState
			if again.LegacyTypeSystem {
				planned = objchange.NormalizeObjectFromLegacySDK(planned, b)
			}
			if got := objchange.ActionForChange(updated.applied, planned); got != plans.NoOp {
				t.Errorf("re-planning an unchanged configuration planned %s:\nprior:   %#v\nplanned: %#v", got, updated.applied, planned)
			}
		})
	}
}

func mustKeepRules(t *testing.T, what string, errs []error) {
	t.Helper()
	for _, err := range errs {
		t.Errorf("%s broke a protocol rule: %s", what, describeErr(err))
	}
}

func describeErr(err error) string {
	if pe, ok := err.(cty.PathError); ok {
		var names []string
		for _, step := range pe.Path {
			if s, ok := step.(cty.GetAttrStep); ok {
				names = append(names, s.Name)
			}
		}
		return strings.Join(names, ".") + ": " + pe.Error()
	}
	return err.Error()
}

// TestRealProviderBugsAreCaught has the framework provider break the
// rules on purpose: each inconsistency must be reported at the attribute
// it is about.
func TestRealProviderBugsAreCaught(t *testing.T) {
	s := launch(t, "tpf")
	b := s.block("tpf_thing")
	none := cty.NullVal(b.ImpliedType())

	badPlan := s.planAndApply("tpf_thing", none, config(b, map[string]cty.Value{
		"name": cty.StringVal("a"), "description": cty.StringVal("mine"), "fail": cty.StringVal("inconsistent_plan"),
	}), nil)
	wantOneErrorAt(t, badPlan.errs, "description", `does not match the configured "mine"`)

	badApply := s.planAndApply("tpf_thing", none, config(b, map[string]cty.Value{
		"name": cty.StringVal("b"), "description": cty.StringVal("mine"), "fail": cty.StringVal("inconsistent_apply"),
	}), nil)
	wantOneErrorAt(t, badApply.errs, "description", `was planned as "mine", but the provider returned "mine (altered by apply)"`)
}

func wantOneErrorAt(t *testing.T, errs []error, attr, fragment string) {
	t.Helper()
	if len(errs) != 1 {
		t.Fatalf("got %d errors, want one about %s: %v", len(errs), attr, errs)
	}
	got := describeErr(errs[0])
	if !strings.HasPrefix(got, attr+": ") || !strings.Contains(got, fragment) {
		t.Errorf("error is %q, want it at %s saying %q", got, attr, fragment)
	}
}
