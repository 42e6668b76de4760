package tpf

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/terrane/terrane/internal/testproviders/cloud"
	"github.com/terrane/terrane/internal/testproviders/tfvalue"
)

// versionedResource (<prefix>_versioned) exercises the state-evolution RPCs:
// its schema is at version 1 (version 0 called "title" "label"), its
// identity is at version 1 (version 0 called "id" "object_id"), and state
// can be moved into it from <prefix>_thing.
type versionedResource struct {
	cloudResource
	thingType string
}

var (
	_ resource.ResourceWithUpgradeState    = (*versionedResource)(nil)
	_ resource.ResourceWithUpgradeIdentity = (*versionedResource)(nil)
	_ resource.ResourceWithMoveState       = (*versionedResource)(nil)
	_ resource.ResourceWithIdentity        = (*versionedResource)(nil)
	_ resource.ResourceWithImportState     = (*versionedResource)(nil)
)

type versionedModel struct {
	ID    types.String `tfsdk:"id"`
	Title types.String `tfsdk:"title"`
	Size  types.Number `tfsdk:"size"`
}

type identityModel struct {
	ID types.String `tfsdk:"id"`
}

type versionedModelV0 struct {
	ID    types.String `tfsdk:"id"`
	Label types.String `tfsdk:"label"`
	Size  types.Number `tfsdk:"size"`
}

func newVersionedResource(prefix string) resource.Resource {
	r := &versionedResource{
		cloudResource: cloudResource{typeName: prefix + "_versioned", schema: versionedSchema()},
		thingType:     prefix + "_thing",
	}
	r.fallbackLoad = r.loadMovedThing
	return r
}

func versionedSchema() schema.Schema {
	return schema.Schema{
		Version: 1,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"title": schema.StringAttribute{Required: true, Description: `Called "label" in schema version 0.`},
			"size":  schema.NumberAttribute{Optional: true},
		},
	}
}

func (r *versionedResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughWithIdentity(ctx, idPath, idPath, req, resp)
}

func (r *versionedResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Version: 1,
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{RequiredForImport: true},
		},
	}
}

func (r *versionedResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	prior := schema.Schema{Attributes: map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true},
		"label": schema.StringAttribute{Required: true},
		"size":  schema.NumberAttribute{Optional: true},
	}}
	return map[int64]resource.StateUpgrader{
		0: {
			PriorSchema: &prior,
			StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
				var old versionedModelV0
				resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
				if resp.Diagnostics.HasError() {
					return
				}
				resp.Diagnostics.Append(resp.State.Set(ctx, versionedModel{ID: old.ID, Title: old.Label, Size: old.Size})...)
			},
		},
	}
}

func (r *versionedResource) UpgradeIdentity(context.Context) map[int64]resource.IdentityUpgrader {
	prior := identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"object_id": identityschema.StringAttribute{RequiredForImport: true},
	}}
	return map[int64]resource.IdentityUpgrader{
		0: {
			PriorSchema: &prior,
			IdentityUpgrader: func(ctx context.Context, req resource.UpgradeIdentityRequest, resp *resource.UpgradeIdentityResponse) {
				var objectID types.String
				resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, objectIDPath, &objectID)...)
				if resp.Diagnostics.HasError() {
					return
				}
				// The response identity starts without a value, so it is set
				// whole rather than attribute by attribute.
				resp.Diagnostics.Append(resp.Identity.Set(ctx, identityModel{ID: objectID})...)
			},
		},
	}
}

func (r *versionedResource) MoveState(context.Context) []resource.StateMover {
	source := thingSchema()
	return []resource.StateMover{{
		SourceSchema: &source,
		StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
			// A mover that does not recognise the source must leave the
			// response empty so the framework can try the next one.
			if req.SourceTypeName != r.thingType || req.SourceState == nil {
				return
			}
			moved, diags := versionedFromThing(ctx, *req.SourceState)
			resp.Diagnostics.Append(diags...)
			if resp.Diagnostics.HasError() {
				return
			}
			resp.Diagnostics.Append(resp.TargetState.Set(ctx, moved)...)
			if resp.TargetIdentity != nil {
				resp.Diagnostics.Append(resp.TargetIdentity.SetAttribute(ctx, idPath, moved.ID)...)
			}
		},
	}}
}

func versionedFromThing(ctx context.Context, thing tfsdk.State) (versionedModel, diag.Diagnostics) {
	var id, name types.String
	var number types.Number
	diags := thing.GetAttribute(ctx, idPath, &id)
	diags.Append(thing.GetAttribute(ctx, namePath, &name)...)
	diags.Append(thing.GetAttribute(ctx, numberPath, &number)...)
	return versionedModel{ID: id, Title: name, Size: number}, diags
}

// loadMovedThing lets a state moved from <prefix>_thing keep finding its
// object: when no <prefix>_versioned object has the id, the thing object
// with that id is read and presented with this resource's schema.
func (r *versionedResource) loadMovedThing(ctx context.Context, id string) (*tfsdk.State, diag.Diagnostics) {
	var diags diag.Diagnostics
	data, err := r.cloud.GetRaw(r.thingType, id)
	if errors.Is(err, cloud.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		diags.AddError("Cannot read the cloud object", err.Error())
		return nil, diags
	}
	thingType := thingSchema()
	val, err := tfvalue.Unmarshal(data, thingType.Type().TerraformType(ctx))
	if err != nil {
		diags.AddError("Cloud object does not match the schema", fmt.Sprintf("%s: %v", r.cloud.Path(r.thingType, id), err))
		return nil, diags
	}
	moved, diags := versionedFromThing(ctx, tfsdk.State{Schema: thingType, Raw: val})
	state := tfsdk.State{Schema: r.schema}
	diags.Append(state.Set(ctx, moved)...)
	return &state, diags
}
