package tpf

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// tokenEphemeral (<prefix>_token) hands out a short-lived secret. While it is
// open a lease object ROOT/<prefix>_token/<lease>.json exists; Close deletes
// it and Renew counts renewals in it, so tests can see the lifecycle.
type tokenEphemeral struct {
	prefix string
	cloud  *cloud.Cloud
}

type tokenModel struct {
	Name              types.String `tfsdk:"name"`
	RenewAfterSeconds types.Int64  `tfsdk:"renew_after_seconds"`
	Value             types.String `tfsdk:"value"`
	LeaseID           types.String `tfsdk:"lease_id"`
}

type lease struct {
	Name     string `json:"name"`
	Renewals int    `json:"renewals"`
}

// The private data of an open token: the lease id, the renewal interval
// asked for, and the number of renewals so far, which Renew and Close
// compare with the lease object to catch a host that hands back stale
// private data instead of what the last Open or Renew returned.
const (
	leasePrivateKey      = "lease"
	renewAfterPrivateKey = "renew_after"
	renewalsPrivateKey   = "renewals"
)

var (
	_ ephemeral.EphemeralResourceWithClose     = (*tokenEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithRenew     = (*tokenEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*tokenEphemeral)(nil)
)

func (e *tokenEphemeral) kind() string { return e.prefix + "_token" }

func (e *tokenEphemeral) Metadata(_ context.Context, _ ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = e.kind()
}

func (e *tokenEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"name":                schema.StringAttribute{Required: true},
			"renew_after_seconds": schema.Int64Attribute{Optional: true, Description: "Ask to be renewed after this long."},
			"value":               schema.StringAttribute{Computed: true, Sensitive: true, Description: `"token-<name>-<lease_id>"`},
			"lease_id":            schema.StringAttribute{Computed: true},
		},
	}
}

func (e *tokenEphemeral) Configure(_ context.Context, req ephemeral.ConfigureRequest, _ *ephemeral.ConfigureResponse) {
	if c, ok := req.ProviderData.(*cloud.Cloud); ok {
		e.cloud = c
	}
}

func (e *tokenEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var config tokenModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if e.cloud == nil {
		resp.Diagnostics.AddError("Provider not configured", "The ephemeral resource needs a configured provider with a known root_dir.")
		return
	}
	leaseID := cloud.NewID()
	if err := e.cloud.Put(e.kind(), leaseID, lease{Name: config.Name.ValueString()}); err != nil {
		resp.Diagnostics.AddError("Cannot open a lease", err.Error())
		return
	}
	config.LeaseID = types.StringValue(leaseID)
	config.Value = types.StringValue("token-" + config.Name.ValueString() + "-" + leaseID)
	resp.Diagnostics.Append(resp.Result.Set(ctx, config)...)
	leaseRef, _ := json.Marshal(leaseID)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, leasePrivateKey, leaseRef)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, renewalsPrivateKey, []byte("0"))...)
	if after := config.RenewAfterSeconds.ValueInt64(); after > 0 {
		afterRef, _ := json.Marshal(after)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, renewAfterPrivateKey, afterRef)...)
		resp.RenewAt = time.Now().Add(time.Duration(after) * time.Second)
	}
}

// privateNumber reads a number Open or Renew stored in private data; zero
// when absent.
func privateNumber(ctx context.Context, private privateGetter, key string) (int64, diag.Diagnostics) {
	data, diags := private.GetKey(ctx, key)
	var n int64
	if len(data) > 0 && json.Unmarshal(data, &n) != nil {
		diags.AddError("Lease private data corrupt", fmt.Sprintf("The private data key %q holds %q, not a number.", key, data))
	}
	return n, diags
}

// checkRenewals fails when the private data's renewal count is not the
// lease's: the host sent private data older than the last Renew's.
func checkRenewals(ctx context.Context, private privateGetter, current lease) diag.Diagnostics {
	seen, diags := privateNumber(ctx, private, renewalsPrivateKey)
	if !diags.HasError() && seen != int64(current.Renewals) {
		diags.AddError("Lease private data is stale",
			fmt.Sprintf("The request carries the private data of renewal %d, but the lease has been renewed %d times: the host must send what the last Open or Renew returned.", seen, current.Renewals))
	}
	return diags
}

// leaseFromPrivate recovers the lease id Open stored in private data; Renew
// and Close receive nothing else.
func leaseFromPrivate(ctx context.Context, private privateGetter) (string, diag.Diagnostics) {
	data, diags := private.GetKey(ctx, leasePrivateKey)
	var leaseID string
	if len(data) == 0 || json.Unmarshal(data, &leaseID) != nil || leaseID == "" {
		diags.AddError("Lease private data missing",
			fmt.Sprintf("The request does not carry the private data Open returned (key %q = %q).", leasePrivateKey, data))
	}
	return leaseID, diags
}

func (e *tokenEphemeral) Renew(ctx context.Context, req ephemeral.RenewRequest, resp *ephemeral.RenewResponse) {
	leaseID, diags := leaseFromPrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || e.cloud == nil {
		return
	}
	var current lease
	if err := e.cloud.Get(e.kind(), leaseID, &current); err != nil {
		resp.Diagnostics.AddError("Cannot renew the lease", err.Error())
		return
	}
	if resp.Diagnostics.Append(checkRenewals(ctx, req.Private, current)...); resp.Diagnostics.HasError() {
		return
	}
	current.Renewals++
	if err := e.cloud.Put(e.kind(), leaseID, current); err != nil {
		resp.Diagnostics.AddError("Cannot renew the lease", err.Error())
		return
	}
	renewals, _ := json.Marshal(current.Renewals)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, renewalsPrivateKey, renewals)...)
	after, diags := privateNumber(ctx, req.Private, renewAfterPrivateKey)
	resp.Diagnostics.Append(diags...)
	if after > 0 {
		resp.RenewAt = time.Now().Add(time.Duration(after) * time.Second)
	}
}

func (e *tokenEphemeral) Close(ctx context.Context, req ephemeral.CloseRequest, resp *ephemeral.CloseResponse) {
	leaseID, diags := leaseFromPrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || e.cloud == nil {
		return
	}
	var current lease
	if err := e.cloud.Get(e.kind(), leaseID, &current); err != nil {
		resp.Diagnostics.AddError("Cannot close the lease", err.Error())
		return
	}
	if resp.Diagnostics.Append(checkRenewals(ctx, req.Private, current)...); resp.Diagnostics.HasError() {
		return
	}
	if err := e.cloud.Delete(e.kind(), leaseID); err != nil {
		resp.Diagnostics.AddError("Cannot close the lease", err.Error())
	}
}
