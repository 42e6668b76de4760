package tpf

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// nestedResource (<prefix>_nested, protocol 6 only) has nested attributes in
// SINGLE, LIST, SET and MAP nesting, some with defaults inside.
type nestedResource struct {
	cloudResource
}

func newNestedResource(prefix string) resource.Resource {
	return &nestedResource{cloudResource{typeName: prefix + "_nested", schema: nestedSchema()}}
}

func (r *nestedResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, idPath, req, resp)
}

func nestedSchema() schema.Schema {
	return schema.Schema{
		Description: "An object configured with nested attributes.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"single": schema.SingleNestedAttribute{
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Required: true},
					"size": schema.NumberAttribute{Optional: true},
				},
			},
			"list": schema.ListNestedAttribute{
				Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Required: true},
					"value": schema.StringAttribute{
						Optional: true, Computed: true, Default: stringdefault.StaticString("none"),
					},
				}},
			},
			"set": schema.SetNestedAttribute{
				Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key":   schema.StringAttribute{Required: true},
					"value": schema.StringAttribute{Optional: true},
				}},
			},
			"map": schema.MapNestedAttribute{
				Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"port": schema.Int64Attribute{Required: true},
					"protocol": schema.StringAttribute{
						Optional: true, Computed: true, Default: stringdefault.StaticString("tcp"),
					},
				}},
			},
		},
	}
}
