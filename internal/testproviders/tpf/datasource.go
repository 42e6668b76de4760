package tpf

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/terrane/terrane/internal/testproviders/cloud"
	"github.com/terrane/terrane/internal/testproviders/tfvalue"
)

// thingDataSource (<prefix>_thing) reads an existing <prefix>_thing object
// from the cloud by id.
type thingDataSource struct {
	prefix string
	cloud  *cloud.Cloud
}

type thingDataModel struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	Tags        types.Map    `tfsdk:"tags"`
	Enabled     types.Bool   `tfsdk:"enabled"`
}

var _ datasource.DataSourceWithConfigure = (*thingDataSource)(nil)

func (d *thingDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = d.prefix + "_thing"
}

func (d *thingDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Reads a " + d.prefix + "_thing object; fails when it does not exist.",
		Attributes: map[string]schema.Attribute{
			"id":          schema.StringAttribute{Required: true},
			"name":        schema.StringAttribute{Computed: true},
			"description": schema.StringAttribute{Computed: true},
			"tags":        schema.MapAttribute{Computed: true, ElementType: types.StringType},
			"enabled":     schema.BoolAttribute{Computed: true},
		},
	}
}

func (d *thingDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if c, ok := req.ProviderData.(*cloud.Cloud); ok {
		d.cloud = c
	}
}

func (d *thingDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var config thingDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.cloud == nil {
		resp.Diagnostics.AddError("Provider not configured", "The data source needs a configured provider with a known root_dir.")
		return
	}
	thingType := d.prefix + "_thing"
	data, err := d.cloud.GetRaw(thingType, config.ID.ValueString())
	if errors.Is(err, cloud.ErrNotFound) {
		resp.Diagnostics.AddAttributeError(idPath, "No such object",
			fmt.Sprintf("There is no %s with id %q.", thingType, config.ID.ValueString()))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the cloud object", err.Error())
		return
	}
	storedSchema := thingSchema()
	val, err := tfvalue.Unmarshal(data, storedSchema.Type().TerraformType(ctx))
	if err != nil {
		resp.Diagnostics.AddError("Cloud object does not match the schema", err.Error())
		return
	}
	var found thingDataModel
	stored := tfsdk.State{Schema: storedSchema, Raw: val}
	for _, field := range []struct {
		name   string
		target any
	}{
		{"id", &found.ID}, {"name", &found.Name}, {"description", &found.Description},
		{"tags", &found.Tags}, {"enabled", &found.Enabled},
	} {
		resp.Diagnostics.Append(stored.GetAttribute(ctx, path.Root(field.name), field.target)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, found)...)
}
