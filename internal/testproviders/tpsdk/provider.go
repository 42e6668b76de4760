package tpsdk

import (
	"context"

	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// New returns the tpsdk provider.
func New() *schema.Provider {
	return &schema.Provider{
		Schema: map[string]*schema.Schema{
			"root_dir": {
				Type:        schema.TypeString,
				Optional:    true,
				Description: "Directory holding the cloud's objects; defaults to $" + cloud.EnvRoot + ".",
			},
		},
		ResourcesMap: map[string]*schema.Resource{
			widgetType: widgetResource(),
			pinnedType: pinnedResource(),
		},
		DataSourcesMap: map[string]*schema.Resource{
			widgetType: widgetDataSource(),
		},
		ConfigureContextFunc: func(_ context.Context, d *schema.ResourceData) (any, diag.Diagnostics) {
			c, err := cloud.Open(d.Get("root_dir").(string))
			if err != nil {
				return nil, diag.FromErr(err)
			}
			return c, nil
		},
	}
}
