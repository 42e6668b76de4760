package tpf

import (
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// newLegacyResource (<prefix>_legacy) has an attribute and a block its
// schema deprecates with a message, which protocol 5.10 and 6.10 carry.
func newLegacyResource(prefix string) resource.Resource {
	return &cloudResource{typeName: prefix + "_legacy", schema: schema.Schema{
		Description: "An object with deprecated parts, stored as ROOT/<type>/<id>.json.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name":     schema.StringAttribute{Required: true},
			"old_name": schema.StringAttribute{Optional: true, DeprecationMessage: "Use name instead."},
		},
		Blocks: map[string]schema.Block{
			"old_settings": schema.SingleNestedBlock{
				DeprecationMessage: "Settings are no longer read.",
				Attributes:         map[string]schema.Attribute{"level": schema.Int64Attribute{Optional: true}},
			},
		},
	}}
}
