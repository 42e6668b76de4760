package plugin

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

// created is a thing made through plan and apply.
type created struct {
	p        *Provider
	schemas  providers.GetProviderSchemaResponse
	typeName string
	state    cty.Value
	identity cty.Value
}

func createResource(t *testing.T, p *Provider, typeName string, attrs map[string]cty.Value) created {
	t.Helper()
	ctx := context.Background()
	schemas := p.GetProviderSchema(ctx)
	block := schemas.ResourceTypes[typeName].Block
	config := objectVal(block, attrs)
	null := cty.NullVal(block.ImpliedType())
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: typeName, PriorState: null, ProposedNewState: proposedNew(block, config), Config: config})
	noErrors(t, "PlanResourceChange "+typeName, plan.Diagnostics)
	applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: typeName, PriorState: null, PlannedState: plan.PlannedState, Config: config,
		PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
	})
	noErrors(t, "ApplyResourceChange "+typeName, applied.Diagnostics)
	return created{p: p, schemas: schemas, typeName: typeName, state: applied.NewState, identity: applied.NewIdentity}
}

func TestDataSourceIdentityAndImportByIdentity(t *testing.T) {
	for _, tp := range frameworkProviders {
		t.Run(tp.name, func(t *testing.T) {
			ctx := context.Background()
			p, typeName, _ := configuredThing(t, tp)
			thing := createResource(t, p, typeName, map[string]cty.Value{"name": cty.StringVal("beta")})
			id := thing.state.GetAttr("id")
			if thing.identity == cty.NilVal || !thing.identity.GetAttr("id").RawEquals(id) {
				t.Fatalf("identity after apply = %#v, want id %#v", thing.identity, id)
			}

			dataBlock := thing.schemas.DataSources[typeName].Block
			read := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: typeName, Config: objectVal(dataBlock, map[string]cty.Value{"id": id})})
			noErrors(t, "ReadDataSource", read.Diagnostics)
			if !read.State.GetAttr("name").RawEquals(cty.StringVal("beta")) {
				t.Errorf("data source name = %#v", read.State.GetAttr("name"))
			}
			noErrors(t, "ValidateDataResourceConfig", p.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{
				TypeName: typeName, Config: objectVal(dataBlock, map[string]cty.Value{"id": id}),
			}).Diagnostics)

			imported := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: typeName, Identity: thing.identity})
			noErrors(t, "ImportResourceState by identity", imported.Diagnostics)
			if len(imported.ImportedResources) != 1 || !imported.ImportedResources[0].Identity.GetAttr("id").RawEquals(id) {
				t.Errorf("import by identity = %+v", imported.ImportedResources)
			}

			identities := p.GetResourceIdentitySchemas(ctx)
			noErrors(t, "GetResourceIdentitySchemas", identities.Diagnostics)
			if attr := identities.IdentityTypes[typeName].Attributes["id"]; attr == nil || attr.Type != cty.String || !attr.RequiredForImport {
				t.Errorf("identity schema of %s = %+v", typeName, identities.IdentityTypes[typeName])
			}
		})
	}
}

func TestStateUpgradeAndMove(t *testing.T) {
	for _, tp := range frameworkProviders {
		t.Run(tp.name, func(t *testing.T) {
			ctx := context.Background()
			p, thingType, _ := configuredThing(t, tp)
			versioned := tp.name + "_versioned"

			upgraded := p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{
				TypeName: versioned, Version: 0, RawStateJSON: []byte(`{"id":"v1","label":"old name","size":2}`),
			})
			noErrors(t, "UpgradeResourceState", upgraded.Diagnostics)
			if !upgraded.UpgradedState.GetAttr("title").RawEquals(cty.StringVal("old name")) {
				t.Errorf("upgraded state = %#v, want label moved to title", upgraded.UpgradedState)
			}

			identity := p.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{
				TypeName: versioned, Version: 0, RawIdentityJSON: []byte(`{"object_id":"v1"}`),
			})
			noErrors(t, "UpgradeResourceIdentity", identity.Diagnostics)
			if identity.UpgradedIdentity == cty.NilVal || !identity.UpgradedIdentity.GetAttr("id").RawEquals(cty.StringVal("v1")) {
				t.Errorf("upgraded identity = %#v", identity.UpgradedIdentity)
			}

			thing := createResource(t, p, thingType, map[string]cty.Value{"name": cty.StringVal("mover")})
			stateJSON := `{"id":"` + thing.state.GetAttr("id").AsString() + `","name":"mover"}`
			moved := p.MoveResourceState(ctx, providers.MoveResourceStateRequest{
				SourceProviderAddress: "registry.terraform.io/terrane/" + tp.name,
				SourceTypeName:        thingType, SourceStateJSON: []byte(stateJSON), TargetTypeName: versioned,
			})
			noErrors(t, "MoveResourceState", moved.Diagnostics)
			if !moved.TargetState.GetAttr("id").RawEquals(thing.state.GetAttr("id")) {
				t.Errorf("moved state = %#v", moved.TargetState)
			}
		})
	}
}

func TestEphemeralResource(t *testing.T) {
	for _, tp := range frameworkProviders {
		t.Run(tp.name, func(t *testing.T) {
			ctx := context.Background()
			p, _, _ := configuredThing(t, tp)
			typeName := tp.name + "_token"
			block := p.GetProviderSchema(ctx).EphemeralResources[typeName].Block
			config := objectVal(block, map[string]cty.Value{"name": cty.StringVal("db"), "renew_after_seconds": cty.NumberIntVal(60)})
			noErrors(t, "ValidateEphemeralResourceConfig", p.ValidateEphemeralResourceConfig(ctx, providers.ValidateEphemeralResourceConfigRequest{TypeName: typeName, Config: config}).Diagnostics)
			opened := p.OpenEphemeralResource(ctx, providers.OpenEphemeralResourceRequest{TypeName: typeName, Config: config})
			noErrors(t, "OpenEphemeralResource", opened.Diagnostics)
			if v := opened.Result.GetAttr("value"); !v.IsKnown() || !strings.HasPrefix(v.AsString(), "token-db-") {
				t.Errorf("ephemeral value = %#v", v)
			}
			if opened.RenewAt.IsZero() || len(opened.Private) == 0 {
				t.Errorf("open answered RenewAt %s, private %q; want both set", opened.RenewAt, opened.Private)
			}
			renewed := p.RenewEphemeralResource(ctx, providers.RenewEphemeralResourceRequest{TypeName: typeName, Private: opened.Private})
			noErrors(t, "RenewEphemeralResource", renewed.Diagnostics)
			if !renewed.RenewAt.After(opened.RenewAt) {
				t.Errorf("renew answered RenewAt %s, want a time after the first, %s", renewed.RenewAt, opened.RenewAt)
			}
			noErrors(t, "CloseEphemeralResource", p.CloseEphemeralResource(ctx, providers.CloseEphemeralResourceRequest{TypeName: typeName, Private: renewed.Private}).Diagnostics)
		})
	}
}

func TestProviderFunctions(t *testing.T) {
	for _, tp := range frameworkProviders {
		t.Run(tp.name, func(t *testing.T) {
			ctx := context.Background()
			p := launchTest(t, tp)
			fns := p.GetFunctions(ctx)
			noErrors(t, "GetFunctions", fns.Diagnostics)
			if echo := fns.Functions["echo"]; len(echo.Parameters) != 1 || !echo.Parameters[0].AllowUnknownValues || echo.ReturnType != cty.DynamicPseudoType {
				t.Errorf("echo declaration = %+v", echo)
			}

			reversed := p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "reverse", Arguments: []cty.Value{cty.StringVal("abc")}})
			if reversed.Err != nil || !reversed.Result.RawEquals(cty.StringVal("cba")) {
				t.Errorf("reverse(abc) = %#v, %v", reversed.Result, reversed.Err)
			}

			failed := p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "sqrt", Arguments: []cty.Value{cty.NumberIntVal(-4)}})
			fnErr, ok := failed.Err.(*providers.FunctionError)
			if !ok || fnErr.Argument == nil || *fnErr.Argument != 0 || !strings.Contains(fnErr.Text, "not negative") {
				t.Errorf("sqrt(-4) error = %#v, want a FunctionError on argument 0", failed.Err)
			}

			obj := cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.NumberIntVal(1)}), "b": cty.True})
			echoed := p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "echo", Arguments: []cty.Value{obj}})
			if echoed.Err != nil || !echoed.Result.RawEquals(obj) {
				t.Errorf("echo(%#v) = %#v, %v", obj, echoed.Result, echoed.Err)
			}
		})
	}
}

// TestRefinedUnknowns sends unknown values carrying refinements in the
// configuration and the proposed new state; the provider must accept them
// and its answer, unknowns included, must decode.
func TestRefinedUnknowns(t *testing.T) {
	for _, tp := range frameworkProviders {
		t.Run(tp.name, func(t *testing.T) {
			ctx := context.Background()
			p, typeName, block := configuredThing(t, tp)
			refined := cty.UnknownVal(cty.String).Refine().NotNull().StringPrefix("https://").NewValue()
			config := objectVal(block, map[string]cty.Value{"name": cty.StringVal("r"), "description": refined})
			noErrors(t, "ValidateResourceConfig", p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: typeName, Config: config}).Diagnostics)
			plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
				TypeName: typeName, PriorState: cty.NullVal(block.ImpliedType()), ProposedNewState: proposedNew(block, config), Config: config,
			})
			noErrors(t, "PlanResourceChange", plan.Diagnostics)
			description := plan.PlannedState.GetAttr("description")
			if description.IsKnown() {
				t.Fatalf("planned description = %#v, want unknown as configured", description)
			}
			if rng := description.Range(); rng.CouldBeNull() {
				t.Logf("%s dropped the not-null refinement of description (allowed)", tp.name)
			}

			echoed := p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "echo", Arguments: []cty.Value{refined}})
			if echoed.Err != nil || echoed.Result.IsKnown() {
				t.Errorf("echo(refined unknown) = %#v, %v; want unknown", echoed.Result, echoed.Err)
			}
		})
	}
}

// TestNestingModes round-trips every nesting mode the providers expose:
// list, set and single blocks, and (protocol 6 only) single, list, set and
// map nested attributes.
func TestNestingModes(t *testing.T) {
	str := cty.StringVal
	for _, tp := range frameworkProviders {
		t.Run(tp.name, func(t *testing.T) {
			p, _, _ := configuredThing(t, tp)
			blocksType := tp.name + "_blocks"
			block := p.GetProviderSchema(context.Background()).ResourceTypes[blocksType].Block
			ruleTy := block.BlockTypes["rule"].Block.ImpliedType()
			tagTy := block.BlockTypes["tag"].Block.ImpliedType()
			rules := cty.ListVal([]cty.Value{objectWith(ruleTy, map[string]cty.Value{"priority": cty.NumberIntVal(1)})})
			tags := cty.SetVal([]cty.Value{objectWith(tagTy, map[string]cty.Value{"value": str("v")})})
			got := createResource(t, p, blocksType, map[string]cty.Value{"rule": rules, "tag": tags})
			if n := got.state.GetAttr("rule_count"); !n.RawEquals(cty.NumberIntVal(1)) {
				t.Errorf("rule_count = %#v, want 1", n)
			}
			if got.state.GetAttr("tag").LengthInt() != 1 {
				t.Errorf("tag set = %#v", got.state.GetAttr("tag"))
			}

			nestedType := tp.name + "_nested"
			nested, ok := p.GetProviderSchema(context.Background()).ResourceTypes[nestedType]
			if tp.protocol == 5 {
				if ok {
					t.Errorf("protocol 5 provider declares %s with nested attributes", nestedType)
				}
				return
			}
			attrs := nested.Block.Attributes
			single := objectWith(attrs["single"].NestedType.ImpliedType(), map[string]cty.Value{"name": str("s")})
			listElem := attrs["list"].NestedType.ImpliedType().ElementType()
			mapElem := attrs["map"].NestedType.ImpliedType().ElementType()
			n := createResource(t, p, nestedType, map[string]cty.Value{
				"single": single,
				"list":   cty.ListVal([]cty.Value{objectWith(listElem, map[string]cty.Value{"name": str("l")})}),
				"map":    cty.MapVal(map[string]cty.Value{"web": objectWith(mapElem, map[string]cty.Value{"port": cty.NumberIntVal(80)})}),
			})
			if v := n.state.GetAttr("map").Index(str("web")).GetAttr("protocol"); !v.RawEquals(str("tcp")) {
				t.Errorf("map element default = %#v, want tcp", v)
			}
			if v := n.state.GetAttr("single").GetAttr("name"); !v.RawEquals(str("s")) {
				t.Errorf("single nested name = %#v", v)
			}
		})
	}
}

// objectWith is an object of type ty with attrs set and the rest null.
func objectWith(ty cty.Type, attrs map[string]cty.Value) cty.Value {
	vals := make(map[string]cty.Value)
	for name, attrTy := range ty.AttributeTypes() {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = cty.NullVal(attrTy)
		}
	}
	return cty.ObjectVal(vals)
}
