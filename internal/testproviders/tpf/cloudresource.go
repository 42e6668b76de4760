package tpf

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/terrane/terrane/internal/testproviders/cloud"
	"github.com/terrane/terrane/internal/testproviders/tfvalue"
)

var (
	rootDirPath  = path.Root("root_dir")
	idPath       = path.Root("id")
	namePath     = path.Root("name")
	numberPath   = path.Root("number")
	objectIDPath = path.Root("object_id")
)

// operation tells a resource's fill hook why it is asked for computed values.
type operation int

const (
	opCreate operation = iota
	opUpdate
)

// cloudResource implements create, read, update and delete for any resource
// whose whole state is stored as one cloud object named by its "id"
// attribute. Concrete resources embed it, supply a schema and optionally a
// fill hook, and add the framework interfaces they need.
type cloudResource struct {
	typeName string
	schema   schema.Schema
	cloud    *cloud.Cloud
	// fill sets the computed attributes of state (already holding the
	// planned values and the id) before it is stored. prior is the state
	// before an update and null on create.
	fill func(ctx context.Context, op operation, prior tfsdk.State, state *tfsdk.State) diag.Diagnostics
	// privateKey, when set, makes the resource keep a private-state entry
	// and refuse updates that arrive without it.
	privateKey string
	// fallbackLoad, when set, is asked for the state of an id that has no
	// object of this resource's own type.
	fallbackLoad func(ctx context.Context, id string) (*tfsdk.State, diag.Diagnostics)
}

func (r *cloudResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.typeName
}

func (r *cloudResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema
}

func (r *cloudResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if c, ok := req.ProviderData.(*cloud.Cloud); ok {
		r.cloud = c
	}
}

func (r *cloudResource) requireCloud(diags *diag.Diagnostics) bool {
	if r.cloud == nil {
		diags.AddError("Provider not configured",
			fmt.Sprintf("%s needs a configured provider with a known root_dir (or $%s) to reach the test cloud.", r.typeName, cloud.EnvRoot))
		return false
	}
	return true
}

func (r *cloudResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	state := tfsdk.State{Schema: req.Plan.Schema, Raw: req.Plan.Raw}
	if applyFailure(ctx, r.failSwitch(ctx, req.Plan), &resp.Diagnostics) || !r.requireCloud(&resp.Diagnostics) {
		return
	}
	id := cloud.NewID()
	resp.Diagnostics.Append(state.SetAttribute(ctx, idPath, id)...)
	if r.fill != nil {
		resp.Diagnostics.Append(r.fill(ctx, opCreate, tfsdk.State{Schema: req.Plan.Schema}, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if !r.writeApplied(ctx, id, r.failSwitch(ctx, req.Plan), req.Config, &state, &resp.Diagnostics) {
		return
	}
	r.recordProviderMeta(ctx, id, req.ProviderMeta, &resp.Diagnostics)
	resp.State = state
	setIdentity(ctx, resp.Identity, id, &resp.Diagnostics)
	if r.privateKey != "" {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, r.privateKey, privateValue(r.typeName, id))...)
	}
}

func (r *cloudResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !r.requireCloud(&resp.Diagnostics) {
		return
	}
	var id string
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, idPath, &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	switch fail := r.failSwitch(ctx, req.State); fail {
	case failReadError:
		resp.Diagnostics.AddError("Read failed on request", fmt.Sprintf("%s %q has fail = %q.", r.typeName, id, fail))
		return
	case failReadHang:
		hang(ctx, &resp.Diagnostics)
		return
	}
	state, diags := r.load(ctx, id)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state == nil {
		// The object is gone from the cloud: report it as deleted so the
		// engine plans to create it again.
		resp.State.RemoveResource(ctx)
		// The framework insists on an identity after every successful
		// read, even one that reports the object gone.
		setIdentity(ctx, resp.Identity, id, &resp.Diagnostics)
		return
	}
	resp.State = *state
	setIdentity(ctx, resp.Identity, id, &resp.Diagnostics)
	if r.privateKey != "" {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, r.privateKey, privateValue(r.typeName, id))...)
	}
}

func (r *cloudResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	state := tfsdk.State{Schema: req.Plan.Schema, Raw: req.Plan.Raw}
	if applyFailure(ctx, r.failSwitch(ctx, req.Plan), &resp.Diagnostics) || !r.requireCloud(&resp.Diagnostics) {
		return
	}
	var id string
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, idPath, &id)...)
	resp.Diagnostics.Append(state.SetAttribute(ctx, idPath, id)...)
	if r.privateKey != "" {
		checkPrivate(ctx, req.Private, r.privateKey, r.typeName, id, &resp.Diagnostics)
	}
	if r.fill != nil && !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(r.fill(ctx, opUpdate, req.State, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if !r.writeApplied(ctx, id, r.failSwitch(ctx, req.Plan), req.Config, &state, &resp.Diagnostics) {
		return
	}
	r.recordProviderMeta(ctx, id, req.ProviderMeta, &resp.Diagnostics)
	resp.State = state
	setIdentity(ctx, resp.Identity, id, &resp.Diagnostics)
}

func (r *cloudResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !r.requireCloud(&resp.Diagnostics) {
		return
	}
	var id string
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, idPath, &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if fail := r.failSwitch(ctx, req.State); fail == failDeleteError {
		resp.Diagnostics.AddError("Delete failed on request",
			fmt.Sprintf("%s %q has fail = %q; change it and apply before destroying.", r.typeName, id, fail))
		return
	}
	if err := r.cloud.Delete(r.typeName, id); err != nil {
		resp.Diagnostics.AddError("Cannot delete the cloud object", err.Error())
	}
}

// writeApplied finishes the new state of a create or update and stores it,
// reporting whether that succeeded.
func (r *cloudResource) writeApplied(ctx context.Context, id, fail string, config tfsdk.Config, state *tfsdk.State, diags *diag.Diagnostics) bool {
	breakConsistencyOnApply(ctx, fail, state, diags)
	diags.Append(r.copyWriteOnly(ctx, config, state)...)
	diags.Append(r.store(ctx, id, state)...)
	return !diags.HasError()
}

// copyWriteOnly puts the configured write-only values into state so they
// reach the cloud object (tests check the provider received them); the
// framework then removes them from the state it returns.
func (r *cloudResource) copyWriteOnly(ctx context.Context, config tfsdk.Config, state *tfsdk.State) diag.Diagnostics {
	var diags diag.Diagnostics
	for name, attribute := range r.schema.Attributes {
		if !attribute.IsWriteOnly() {
			continue
		}
		var value attr.Value
		diags.Append(config.GetAttribute(ctx, path.Root(name), &value)...)
		diags.Append(state.SetAttribute(ctx, path.Root(name), value)...)
	}
	return diags
}

// store replaces unknowns left in state by nulls (apply may not return
// unknowns) and writes the object to the cloud.
func (r *cloudResource) store(ctx context.Context, id string, state *tfsdk.State) diag.Diagnostics {
	var diags diag.Diagnostics
	known, err := tfvalue.NullUnknowns(state.Raw)
	if err != nil {
		diags.AddError("Cannot finish the new state", err.Error())
		return diags
	}
	state.Raw = known
	data, err := tfvalue.Marshal(known, r.schema.Type().TerraformType(ctx))
	if err == nil {
		err = r.cloud.PutRaw(r.typeName, id, data)
	}
	if err != nil {
		diags.AddError("Cannot write the cloud object", err.Error())
	}
	return diags
}

// load reads object id back as a state; a nil state means it does not exist.
func (r *cloudResource) load(ctx context.Context, id string) (*tfsdk.State, diag.Diagnostics) {
	var diags diag.Diagnostics
	data, err := r.cloud.GetRaw(r.typeName, id)
	if errors.Is(err, cloud.ErrNotFound) {
		if r.fallbackLoad != nil {
			return r.fallbackLoad(ctx, id)
		}
		return nil, nil
	}
	if err != nil {
		diags.AddError("Cannot read the cloud object", err.Error())
		return nil, diags
	}
	val, err := tfvalue.Unmarshal(data, r.schema.Type().TerraformType(ctx))
	if err != nil {
		diags.AddError("Cloud object does not match the schema",
			fmt.Sprintf("%s: %v. Fix or delete the file.", r.cloud.Path(r.typeName, id), err))
		return nil, diags
	}
	return &tfsdk.State{Schema: r.schema, Raw: val}, diags
}

func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id string, diags *diag.Diagnostics) {
	if identity == nil || identity.Schema == nil {
		return
	}
	diags.Append(identity.SetAttribute(ctx, idPath, id)...)
}

// recordProviderMeta writes the module_name of the provider_meta a create
// received, if any, as ROOT/<type>_provider_meta/<id>.json {"name": ...}, so
// tests can see what the host sent.
func (r *cloudResource) recordProviderMeta(ctx context.Context, id string, meta tfsdk.Config, diags *diag.Diagnostics) {
	if meta.Raw.IsNull() {
		return
	}
	var moduleName types.String
	diags.Append(meta.GetAttribute(ctx, path.Root("module_name"), &moduleName)...)
	if moduleName.IsNull() || moduleName.IsUnknown() {
		return
	}
	if err := r.cloud.Put(r.typeName+"_provider_meta", id, map[string]string{"name": moduleName.ValueString(), "resource": id}); err != nil {
		diags.AddError("Cannot record the provider_meta", err.Error())
	}
}
