package tpf

import (
	"context"
	"math/big"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// thingResource (<prefix>_thing) carries one attribute of every type, the
// failure switches, private state, identity and import.
type thingResource struct {
	cloudResource
}

var (
	_ resource.ResourceWithModifyPlan  = (*thingResource)(nil)
	_ resource.ResourceWithImportState = (*thingResource)(nil)
	_ resource.ResourceWithIdentity    = (*thingResource)(nil)
	_ resource.ResourceWithConfigure   = (*thingResource)(nil)
)

func newThingResource(prefix string) resource.Resource {
	r := &thingResource{cloudResource{
		typeName:   prefix + "_thing",
		schema:     thingSchema(),
		privateKey: "origin",
	}}
	r.fill = fillThing
	return r
}

func thingSchema() schema.Schema {
	return schema.Schema{
		Description: "An object with one attribute of every type.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:      true,
				Description:   "Changing it replaces the object.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"description": schema.StringAttribute{Optional: true},
			"number":      schema.NumberAttribute{Optional: true, Description: "Arbitrary precision."},
			"integer":     schema.Int64Attribute{Optional: true},
			"float":       schema.Float64Attribute{Optional: true},
			"enabled": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
			},
			"size_class": schema.StringAttribute{
				Optional: true, Computed: true,
				Description:   `Chosen by the provider ("small") when not configured.`,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"tags":            schema.MapAttribute{Optional: true, ElementType: types.StringType},
			"list_of_strings": schema.ListAttribute{Optional: true, ElementType: types.StringType},
			"set_of_strings":  schema.SetAttribute{Optional: true, ElementType: types.StringType},
			"numbers":         schema.ListAttribute{Optional: true, ElementType: types.NumberType},
			"object": schema.ObjectAttribute{Optional: true, AttributeTypes: map[string]attr.Type{
				"a": types.StringType, "b": types.NumberType, "c": types.BoolType,
			}},
			"dynamic": schema.DynamicAttribute{Optional: true},
			"replace_triggers": schema.MapAttribute{
				Optional: true, ElementType: types.StringType,
				PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
			},
			"secret":              schema.StringAttribute{Optional: true, Sensitive: true},
			"password_wo":         schema.StringAttribute{Optional: true, WriteOnly: true, Sensitive: true},
			"password_wo_version": schema.Int64Attribute{Optional: true},
			"created_at": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"revision": schema.NumberAttribute{Computed: true, Description: "1 on create, +1 on every update."},
			"fail": schema.StringAttribute{
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(failValues...)},
			},
		},
	}
}

// fillThing computes the attributes the provider owns.
func fillThing(ctx context.Context, op operation, prior tfsdk.State, state *tfsdk.State) diag.Diagnostics {
	var diags diag.Diagnostics
	var sizeClass types.String
	diags.Append(state.GetAttribute(ctx, path.Root("size_class"), &sizeClass)...)
	if sizeClass.IsUnknown() || sizeClass.IsNull() {
		diags.Append(state.SetAttribute(ctx, path.Root("size_class"), "small")...)
	}
	revision := big.NewFloat(1)
	if op == opCreate {
		diags.Append(state.SetAttribute(ctx, path.Root("created_at"), time.Now().UTC().Format(time.RFC3339Nano))...)
	} else {
		var priorRevision types.Number
		diags.Append(prior.GetAttribute(ctx, path.Root("revision"), &priorRevision)...)
		if !priorRevision.IsNull() && !priorRevision.IsUnknown() {
			revision.Add(priorRevision.ValueBigFloat(), revision)
		}
		var createdAt types.String
		diags.Append(prior.GetAttribute(ctx, path.Root("created_at"), &createdAt)...)
		diags.Append(state.SetAttribute(ctx, path.Root("created_at"), createdAt)...)
	}
	diags.Append(state.SetAttribute(ctx, path.Root("revision"), revision)...)
	return diags
}

func (r *thingResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroying
	}
	planFailure(ctx, r.failSwitch(ctx, req.Plan), &resp.Plan, &resp.Diagnostics)
}

func (r *thingResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughWithIdentity(ctx, idPath, idPath, req, resp)
}

func (r *thingResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema()
}

func idIdentitySchema() identityschema.Schema {
	return identityschema.Schema{
		Version: 0,
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{RequiredForImport: true},
		},
	}
}
