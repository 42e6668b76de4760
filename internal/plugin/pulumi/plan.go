package pulumi

import (
	"context"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
)

// resourceType finds a resource type by name.
func (p *Provider) resourceType(ctx context.Context, typeName string) (*ResourceType, diags.Diagnostics) {
	pkg, problems := p.schema(ctx)
	if problems.HasErrors() {
		return nil, problems
	}
	rt, ok := pkg.Resources[typeName]
	if !ok {
		return nil, diags.Diagnostics{diags.Errorf("Unknown resource type",
			"The Pulumi provider %s has no resource type %s.", p.name, typeName)}
	}
	return rt, nil
}

// check runs Check on a configuration and returns the provider's inputs.
// The schema's secret attributes and the configuration's sensitive values
// (configSecrets) go as secrets.
func (p *Provider) check(ctx context.Context, rt *ResourceType, priv privateData, config cty.Value, configSecrets []cty.Path, olds *structpb.Struct) (*structpb.Struct, diags.Diagnostics) {
	news, err := p.pkg.toWire(config, append(rt.secretPaths(), configSecrets...), p.wireOptions())
	if err != nil {
		return nil, p.valueProblem("Check", TypeName(rt.Token)+" configuration", err)
	}
	resp, err := p.client.Check(ctx, &pulumirpc.CheckRequest{
		Urn: priv.URN, Olds: olds, News: news, RandomSeed: priv.Seed, Name: priv.name(), Type: rt.Token,
	})
	if err != nil {
		return nil, diags.Diagnostics{p.callFailure(ctx, "Check", TypeName(rt.Token), err)}
	}
	if problems := p.checkFailures(resp.GetFailures(), "a "+TypeName(rt.Token)); problems.HasErrors() {
		return nil, problems
	}
	return resp.GetInputs(), nil
}

// ValidateResourceConfig runs Check, whose failures name the attribute.
func (p *Provider) ValidateResourceConfig(ctx context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	rt, problems := p.resourceType(ctx, req.TypeName)
	if problems.HasErrors() {
		return providers.ValidateResourceConfigResponse{Diagnostics: problems}
	}
	if rt.Component {
		return providers.ValidateResourceConfigResponse{} // components have no Check
	}
	priv, err := decodePrivate(nil, rt.Token)
	if err != nil {
		return providers.ValidateResourceConfigResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Cannot validate", "%s", err)}}
	}
	_, problems = p.check(ctx, rt, priv, req.Config, nil, nil)
	return providers.ValidateResourceConfigResponse{Diagnostics: problems}
}

func (p *Provider) ValidateDataResourceConfig(ctx context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	pkg, problems := p.schema(ctx)
	if pkg != nil && pkg.DataSources[req.TypeName] == nil {
		problems = append(problems, diags.Errorf("Unknown data source", "The Pulumi provider %s has no data source %s.", p.name, req.TypeName))
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: problems}
}

// PlanResourceChange checks the configuration, diffs it against the prior
// object and previews the result.
func (p *Provider) PlanResourceChange(ctx context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState, PlannedPrivate: req.PriorPrivate}
	}
	rt, problems := p.resourceType(ctx, req.TypeName)
	if problems.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: problems}
	}
	if rt.Component {
		return p.planComponent(ctx, rt, req)
	}
	priv, err := decodePrivate(req.PriorPrivate, rt.Token)
	if err != nil {
		return providers.PlanResourceChangeResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	oldInputs, err := priv.inputs()
	if err != nil {
		return providers.PlanResourceChangeResponse{Diagnostics: p.privateProblem(req.TypeName, err)}
	}
	checked, problems := p.check(ctx, rt, priv, req.Config, req.ConfigSensitivePaths, oldInputs)
	if problems.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: problems}
	}
	planned := priv.withInputs(checked)
	planned.PriorInputs = priv.Inputs
	resp := providers.PlanResourceChangeResponse{PlannedPrivate: planned.encode()}
	if req.PriorState.IsNull() {
		resp.PlannedState, resp.SensitivePaths, resp.Diagnostics = p.previewCreate(ctx, rt, priv, checked)
		if !resp.Diagnostics.HasErrors() {
			resp.PlannedState = alignTo(resp.PlannedState, req.Config)
		}
		return resp
	}
	ignore := p.pkg.propertyPaths(req.IgnoreChanges)
	diff, problems := p.diff(ctx, rt, priv, req.PriorState, checked, oldInputs, ignore)
	if problems.HasErrors() {
		return providers.PlanResourceChangeResponse{Diagnostics: problems}
	}
	switch {
	case !diff.changed:
		planned.NoChange = true
		resp.PlannedPrivate = planned.encode()
		resp.PlannedState, resp.SensitivePaths = unchangedPlan(rt, req.PriorState, req.Config), priv.Secrets
	case len(diff.replace) > 0:
		resp.RequiresReplace = diff.replace
		resp.DeleteBeforeReplace = diff.deleteBeforeReplace
		resp.PlannedState, resp.SensitivePaths, resp.Diagnostics = p.previewCreate(ctx, rt, priv, checked)
	default:
		resp.PlannedState, resp.SensitivePaths, resp.Diagnostics = p.previewUpdate(ctx, rt, priv, req.PriorState, checked, oldInputs, ignore)
	}
	if !resp.Diagnostics.HasErrors() {
		resp.PlannedState = alignTo(resp.PlannedState, req.Config)
	}
	return resp
}

// unchangedPlan is the plan of an object whose Diff found no change: the
// prior object, as Pulumi's engine keeps the old outputs. An input the
// prior object has no value for but the configuration sets (an imported
// object whose Read did not return every input) takes the configured
// value, which is what Pulumi records as the object's new inputs; the
// planned value must match the configuration there, so the prior's null
// would be an invalid plan. Applying such a plan calls no provider (see
// privateData.NoChange).
func unchangedPlan(rt *ResourceType, prior, config cty.Value) cty.Value {
	attrs := prior.AsValueMap()
	for name := range rt.Inputs {
		configured := config.GetAttr(name)
		if attrs[name].IsNull() && !configured.IsNull() {
			attrs[name] = configured
		}
	}
	return cty.ObjectVal(attrs)
}

// diffResult is Diff's answer in Terrane's terms.
type diffResult struct {
	changed bool
	replace []cty.Path
	// deleteBeforeReplace is the provider's demand that the old object go
	// before its replacement is created (names that must stay unique).
	deleteBeforeReplace bool
}

// diff calls Diff. DIFF_UNKNOWN (the provider cannot tell) falls back to
// comparing the checked inputs with the old ones.
func (p *Provider) diff(ctx context.Context, rt *ResourceType, priv privateData, prior cty.Value, news, oldInputs *structpb.Struct, ignore []string) (diffResult, diags.Diagnostics) {
	olds, err := p.oldOutputs(rt, priv, prior)
	if err != nil {
		return diffResult{}, p.valueProblem("Diff", "prior "+TypeName(rt.Token), err)
	}
	resp, err := p.client.Diff(ctx, &pulumirpc.DiffRequest{
		Id: prior.GetAttr("id").AsString(), Urn: priv.URN, Olds: olds, News: news, OldInputs: oldInputs, Name: priv.name(), Type: rt.Token,
		IgnoreChanges: ignore,
	})
	if err != nil {
		return diffResult{}, diags.Diagnostics{p.callFailure(ctx, "Diff", TypeName(rt.Token), err)}
	}
	result := diffResult{changed: resp.GetChanges() == pulumirpc.DiffResponse_DIFF_SOME, deleteBeforeReplace: resp.GetDeleteBeforeReplace()}
	changedKeys := append([]string(nil), resp.GetDiffs()...)
	replaceKeys := append([]string(nil), resp.GetReplaces()...)
	for key, detail := range resp.GetDetailedDiff() {
		changedKeys = append(changedKeys, key)
		switch detail.GetKind() {
		case pulumirpc.PropertyDiff_ADD_REPLACE, pulumirpc.PropertyDiff_DELETE_REPLACE, pulumirpc.PropertyDiff_UPDATE_REPLACE:
			replaceKeys = append(replaceKeys, key)
		}
	}
	if resp.GetChanges() == pulumirpc.DiffResponse_DIFF_UNKNOWN {
		result.changed = !proto.Equal(news, oldInputs)
		if result.changed {
			changedKeys = changedInputKeys(news, oldInputs)
		}
	}
	if !result.changed {
		return result, nil
	}
	seen := map[string]bool{}
	for _, key := range changedKeys {
		if name := topAttribute(key); rt.ReplaceOnChanges[name] {
			replaceKeys = append(replaceKeys, key)
		}
	}
	for _, key := range replaceKeys {
		name := topAttribute(key)
		if !seen[name] {
			seen[name] = true
			result.replace = append(result.replace, cty.GetAttrPath(name))
		}
	}
	return result, nil
}

// topAttribute is the attribute a Pulumi property path ("a.b", "a[0]",
// "a[\"k\"]") starts with.
func topAttribute(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		path = path[:i]
	}
	return SnakeCase(path)
}

func changedInputKeys(news, olds *structpb.Struct) []string {
	var keys []string
	for key, value := range news.GetFields() {
		if !proto.Equal(value, olds.GetFields()[key]) {
			keys = append(keys, key)
		}
	}
	for key := range olds.GetFields() {
		if _, ok := news.GetFields()[key]; !ok {
			keys = append(keys, key)
		}
	}
	return keys
}

// previewCreate plans a new object: the provider's preview when it
// supports previews, else the inputs with every other output unknown. It
// also returns the paths of the secrets in the answer.
func (p *Provider) previewCreate(ctx context.Context, rt *ResourceType, priv privateData, inputs *structpb.Struct) (cty.Value, []cty.Path, diags.Diagnostics) {
	if !p.supportsPreview {
		return p.plannedFromOutputs(rt, inputs, inputs, cty.UnknownVal(cty.String), cty.NilVal)
	}
	resp, err := p.client.Create(ctx, &pulumirpc.CreateRequest{Urn: priv.URN, Properties: inputs, Preview: true, Name: priv.name(), Type: rt.Token})
	if err != nil {
		return cty.NilVal, nil, diags.Diagnostics{p.callFailure(ctx, "Create (preview)", TypeName(rt.Token), err)}
	}
	return p.plannedFromOutputs(rt, resp.GetProperties(), inputs, cty.UnknownVal(cty.String), cty.NilVal)
}

func (p *Provider) previewUpdate(ctx context.Context, rt *ResourceType, priv privateData, prior cty.Value, news, oldInputs *structpb.Struct, ignore []string) (cty.Value, []cty.Path, diags.Diagnostics) {
	id := prior.GetAttr("id")
	if !p.supportsPreview {
		return p.plannedFromOutputs(rt, news, news, id, prior)
	}
	olds, err := p.oldOutputs(rt, priv, prior)
	if err != nil {
		return cty.NilVal, nil, p.valueProblem("Update", "prior "+TypeName(rt.Token), err)
	}
	resp, err := p.client.Update(ctx, &pulumirpc.UpdateRequest{Id: id.AsString(), Urn: priv.URN, Olds: olds, News: news, OldInputs: oldInputs, Preview: true, Name: priv.name(), Type: rt.Token,
		IgnoreChanges: ignore})
	if err != nil {
		return cty.NilVal, nil, diags.Diagnostics{p.callFailure(ctx, "Update (preview)", TypeName(rt.Token), err)}
	}
	return p.plannedFromOutputs(rt, resp.GetProperties(), news, id, prior)
}

// plannedFromOutputs converts a preview's properties (or, without
// previews, the checked inputs). An input Check left unset is planned null:
// the provider chose no value for it, so "known after apply" would be a
// false promise. Any other computed attribute the properties leave out is
// unknown, as Pulumi's SDKs read a missing preview output as unknown.
//
// An update's preview (prior is the object updated) is read more closely:
// an output the object has no value for (null, or empty: see hasNoValue)
// keeps that when the preview leaves it out or answers it unknown.
// Providers built with pulumi-go-provider answer every output as unknown
// in a preview once an input changed, including the ones that stay empty
// (a command's stderr or assets); Pulumi shows no outputs in an update's
// preview, and "known after apply" on each would say they change when
// nothing says so.
// Should one appear after all, the apply records it: a Pulumi preview is a
// guess, not a promise (see ApplyResourceChange).
func (p *Provider) plannedFromOutputs(rt *ResourceType, props, inputs *structpb.Struct, id, prior cty.Value) (cty.Value, []cty.Path, diags.Diagnostics) {
	ty := rt.Schema.Block.ImpliedType()
	v, secrets, err := p.pkg.fromWire(props, ty)
	if err != nil {
		return cty.NilVal, nil, p.answerProblem(TypeName(rt.Token), err)
	}
	attrs := v.AsValueMap()
	present, checked := props.GetFields(), inputs.GetFields()
	for name, attr := range rt.Schema.Block.Attributes {
		if !attr.Computed || name == "id" {
			continue
		}
		key := p.pkg.PulumiName(name)
		_, given := present[key]
		neverHad := prior != cty.NilVal && !rt.Inputs[name] && hasNoValue(prior.GetAttr(name))
		switch _, set := checked[key]; {
		case neverHad && (!given || !attrs[name].IsKnown()):
			attrs[name] = prior.GetAttr(name)
		case given, rt.Inputs[name] && !set:
			// as answered; an unset input is null, from fromWire
		default:
			attrs[name] = cty.UnknownVal(ty.AttributeType(name))
		}
	}
	attrs["id"] = id
	return cty.ObjectVal(attrs), secrets, nil
}

// hasNoValue reports whether an output holds nothing: null, an empty
// string or an empty collection, which Pulumi providers written in Go
// return for an output they did not set.
func hasNoValue(v cty.Value) bool {
	switch {
	case v.IsNull():
		return true
	case !v.IsKnown():
		return false
	case v.Type() == cty.String:
		return v.AsString() == ""
	}
	return emptyOrNull(v)
}

func (p *Provider) privateProblem(typeName string, err error) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Unreadable private data",
		"The stored %s object of the Pulumi provider %s has private data Terrane cannot read: %s. Remove the object from the state and import it again.", typeName, p.name, err)}
}

func (p *Provider) answerProblem(typeName string, err error) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Invalid provider answer",
		"The Pulumi provider %s returned a %s value that does not match its schema: %s. This is a bug in the provider.", p.name, typeName, err)}
}
