package tpf

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// blocksResource (<prefix>_blocks) has nested blocks in LIST, SET and
// SINGLE nesting. The framework cannot put min/max items into the schema, so
// the limits are validators: 1 to 3 rule blocks, at most 5 tag blocks.
type blocksResource struct {
	cloudResource
}

func newBlocksResource(prefix string) resource.Resource {
	r := &blocksResource{cloudResource{typeName: prefix + "_blocks", schema: blocksSchema()}}
	r.fill = fillBlocks
	return r
}

func (r *blocksResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, idPath, req, resp)
}

func blocksSchema() schema.Schema {
	return schema.Schema{
		Description: "An object configured with nested blocks.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name":       schema.StringAttribute{Required: true},
			"rule_count": schema.Int64Attribute{Computed: true, Description: "Number of rule blocks."},
		},
		Blocks: map[string]schema.Block{
			"rule": schema.ListNestedBlock{
				Validators: []validator.List{listvalidator.IsRequired(), listvalidator.SizeBetween(1, 3)},
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"action":   schema.StringAttribute{Required: true},
					"priority": schema.NumberAttribute{Optional: true},
				}},
			},
			"tag": schema.SetNestedBlock{
				Validators: []validator.Set{setvalidator.SizeAtMost(5)},
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"key":   schema.StringAttribute{Required: true},
					"value": schema.StringAttribute{Optional: true},
				}},
			},
			"settings": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
				"mode": schema.StringAttribute{
					Optional: true, Computed: true, Default: stringdefault.StaticString("auto"),
				},
				"level": schema.Int64Attribute{Optional: true},
			}},
		},
	}
}

func fillBlocks(ctx context.Context, _ operation, _ tfsdk.State, state *tfsdk.State) diag.Diagnostics {
	var rules types.List
	diags := state.GetAttribute(ctx, path.Root("rule"), &rules)
	diags.Append(state.SetAttribute(ctx, path.Root("rule_count"), int64(len(rules.Elements())))...)
	return diags
}
