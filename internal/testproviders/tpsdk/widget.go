package tpsdk

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/go-cty/cty"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

const widgetType = "tpsdk_widget"

// widgetFields are the attributes stored in the cloud object, in the shape
// ResourceData.Set accepts after a JSON round trip.
var widgetFields = []string{"name", "size", "tags", "labels", "rule", "port"}

func widgetResource() *schema.Resource {
	return &schema.Resource{
		Description:   "A widget stored as ROOT/tpsdk_widget/<id>.json.",
		CreateContext: createWidget,
		ReadContext:   readWidget,
		UpdateContext: updateWidget,
		DeleteContext: deleteWidget,
		Importer:      &schema.ResourceImporter{StateContext: schema.ImportStatePassthroughContext},
		SchemaVersion: 1,
		StateUpgraders: []schema.StateUpgrader{{
			Version: 0,
			Type:    widgetV0Type(),
			Upgrade: upgradeWidgetV0,
		}},
		Schema: widgetSchema(),
	}
}

func widgetSchema() map[string]*schema.Schema {
	return map[string]*schema.Schema{
		"name": {Type: schema.TypeString, Required: true, ForceNew: true, Description: `Called "label" in schema version 0.`},
		"size": {Type: schema.TypeInt, Optional: true, Computed: true, Description: "The provider picks 1 when unset."},
		"tags": {Type: schema.TypeSet, Optional: true, Elem: &schema.Schema{Type: schema.TypeString}},
		"labels": {
			Type: schema.TypeMap, Optional: true, Elem: &schema.Schema{Type: schema.TypeString},
		},
		"rule": {
			Type: schema.TypeList, Optional: true, MaxItems: 3,
			Elem: &schema.Resource{Schema: map[string]*schema.Schema{
				"action":   {Type: schema.TypeString, Required: true},
				"priority": {Type: schema.TypeInt, Optional: true},
			}},
		},
		"port": {
			Type: schema.TypeSet, Optional: true, MaxItems: 5,
			Elem: &schema.Resource{Schema: map[string]*schema.Schema{
				"number":   {Type: schema.TypeInt, Required: true},
				"protocol": {Type: schema.TypeString, Optional: true, Default: "tcp"},
			}},
		},
	}
}

func widgetV0Type() cty.Type {
	return cty.Object(map[string]cty.Type{
		"id": cty.String, "label": cty.String, "size": cty.Number,
		"tags": cty.Set(cty.String), "labels": cty.Map(cty.String),
	})
}

// upgradeWidgetV0 renames "label" to "name"; the rest is unchanged.
func upgradeWidgetV0(_ context.Context, raw map[string]any, _ any) (map[string]any, error) {
	if raw == nil {
		return nil, errors.New("no prior state to upgrade")
	}
	raw["name"] = raw["label"]
	delete(raw, "label")
	return raw, nil
}

func createWidget(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if _, ok := d.GetOk("size"); !ok {
		if err := d.Set("size", 1); err != nil {
			return diag.FromErr(err)
		}
	}
	d.SetId(cloud.NewID())
	if diags := storeWidget(d, meta); diags.HasError() {
		d.SetId("")
		return diags
	}
	return readWidget(ctx, d, meta)
}

func updateWidget(ctx context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if diags := storeWidget(d, meta); diags.HasError() {
		return diags
	}
	return readWidget(ctx, d, meta)
}

func storeWidget(d *schema.ResourceData, meta any) diag.Diagnostics {
	object := make(map[string]any, len(widgetFields))
	for _, field := range widgetFields {
		value := d.Get(field)
		if set, ok := value.(*schema.Set); ok {
			value = set.List()
		}
		object[field] = value
	}
	if err := meta.(*cloud.Cloud).Put(widgetType, d.Id(), object); err != nil {
		return diag.FromErr(err)
	}
	return nil
}

func readWidget(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	object, err := loadWidget(meta.(*cloud.Cloud), d.Id())
	if errors.Is(err, cloud.ErrNotFound) {
		d.SetId("") // gone from the cloud: the engine should plan to create it
		return nil
	}
	if err != nil {
		return diag.FromErr(err)
	}
	for _, field := range widgetFields {
		if err := d.Set(field, object[field]); err != nil {
			return diag.Errorf("setting %s from %s: %v", field, meta.(*cloud.Cloud).Path(widgetType, d.Id()), err)
		}
	}
	return nil
}

// loadWidget reads a stored widget, turning JSON numbers into the ints the
// schema declares.
func loadWidget(c *cloud.Cloud, id string) (map[string]any, error) {
	var object map[string]any
	if err := c.Get(widgetType, id, &object); err != nil {
		return nil, err
	}
	return normaliseNumbers(object).(map[string]any), nil
}

func normaliseNumbers(value any) any {
	switch v := value.(type) {
	case map[string]any:
		for key, elem := range v {
			v[key] = normaliseNumbers(elem)
		}
	case []any:
		for i, elem := range v {
			v[i] = normaliseNumbers(elem)
		}
	case interface{ Int64() (int64, error) }:
		if n, err := v.Int64(); err == nil {
			return int(n)
		}
		return fmt.Sprint(v)
	}
	return value
}

func deleteWidget(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	return diag.FromErr(meta.(*cloud.Cloud).Delete(widgetType, d.Id()))
}

func widgetDataSource() *schema.Resource {
	return &schema.Resource{
		Description: "Reads an existing tpsdk_widget by id; fails when it does not exist.",
		ReadContext: func(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			id := d.Get("id").(string)
			object, err := loadWidget(meta.(*cloud.Cloud), id)
			if err != nil {
				return diag.Errorf("reading %s %q: %v", widgetType, id, err)
			}
			d.SetId(id)
			for _, field := range []string{"name", "size", "tags"} {
				if err := d.Set(field, object[field]); err != nil {
					return diag.FromErr(err)
				}
			}
			return nil
		},
		Schema: map[string]*schema.Schema{
			"id":   {Type: schema.TypeString, Required: true},
			"name": {Type: schema.TypeString, Computed: true},
			"size": {Type: schema.TypeInt, Computed: true},
			"tags": {Type: schema.TypeSet, Computed: true, Elem: &schema.Schema{Type: schema.TypeString}},
		},
	}
}
