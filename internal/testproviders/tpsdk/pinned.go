package tpsdk

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

const pinnedType = "tpsdk_pinned"

// pinnedFields are the attributes stored in the cloud object.
var pinnedFields = []string{"name", "zones", "rule"}

// pinnedResource is an object every attribute of which forces its
// replacement, sets of strings and of blocks included: the SDK reports
// such changes element by element, and adds "id", the way the plugin SDK's
// providers do.
func pinnedResource() *schema.Resource {
	return &schema.Resource{
		Description: "A pinned object stored as ROOT/tpsdk_pinned/<id>.json; changing anything replaces it.",
		CreateContext: func(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			d.SetId(cloud.NewID())
			if diags := storePinned(d, meta); diags.HasError() {
				d.SetId("")
				return diags
			}
			return readPinned(ctx, d, meta)
		},
		ReadContext: readPinned,
		DeleteContext: func(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			return diag.FromErr(meta.(*cloud.Cloud).Delete(pinnedType, d.Id()))
		},
		Schema: map[string]*schema.Schema{
			"name":  {Type: schema.TypeString, Required: true, ForceNew: true},
			"zones": {Type: schema.TypeSet, Optional: true, ForceNew: true, Elem: &schema.Schema{Type: schema.TypeString}},
			"rule": {
				Type: schema.TypeSet, Optional: true, ForceNew: true,
				Elem: &schema.Resource{Schema: map[string]*schema.Schema{
					"action":   {Type: schema.TypeString, Required: true, ForceNew: true},
					"priority": {Type: schema.TypeInt, Optional: true, ForceNew: true},
				}},
			},
		},
	}
}

func storePinned(d *schema.ResourceData, meta any) diag.Diagnostics {
	object := make(map[string]any, len(pinnedFields))
	for _, field := range pinnedFields {
		value := d.Get(field)
		if set, ok := value.(*schema.Set); ok {
			value = set.List()
		}
		object[field] = value
	}
	return diag.FromErr(meta.(*cloud.Cloud).Put(pinnedType, d.Id(), object))
}

func readPinned(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	var object map[string]any
	err := meta.(*cloud.Cloud).Get(pinnedType, d.Id(), &object)
	if errors.Is(err, cloud.ErrNotFound) {
		d.SetId("")
		return nil
	}
	if err != nil {
		return diag.FromErr(err)
	}
	object = normaliseNumbers(object).(map[string]any)
	for _, field := range pinnedFields {
		if err := d.Set(field, object[field]); err != nil {
			return diag.Errorf("setting %s: %v", field, err)
		}
	}
	return nil
}
