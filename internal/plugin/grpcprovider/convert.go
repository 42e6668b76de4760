package grpcprovider

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/value"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// diagnostics converts a provider's diagnostics, keeping attribute paths.
// A diagnostic with an invalid severity is shown as an error: a provider
// that cannot say what it means is not to be ignored.
func diagnostics(in []*tfplugin6.Diagnostic) diags.Diagnostics {
	if len(in) == 0 {
		return nil
	}
	out := make(diags.Diagnostics, 0, len(in))
	for _, d := range in {
		severity := diags.Error
		if d.GetSeverity() == tfplugin6.Diagnostic_WARNING {
			severity = diags.Warning
		}
		out = append(out, diags.Diagnostic{
			Severity:      severity,
			Summary:       d.GetSummary(),
			Detail:        d.GetDetail(),
			AttributePath: value.PathFromProto6(d.GetAttribute()),
		})
	}
	return out
}

func deferred(in *tfplugin6.Deferred) *providers.Deferred {
	if in == nil {
		return nil
	}
	reason := providers.DeferredReasonUnknown
	switch in.GetReason() {
	case tfplugin6.Deferred_RESOURCE_CONFIG_UNKNOWN:
		reason = providers.DeferredReasonResourceConfigUnknown
	case tfplugin6.Deferred_PROVIDER_CONFIG_UNKNOWN:
		reason = providers.DeferredReasonProviderConfigUnknown
	case tfplugin6.Deferred_ABSENT_PREREQ:
		reason = providers.DeferredReasonAbsentPrereq
	}
	return &providers.Deferred{Reason: reason}
}

func clientCapabilities(in providers.ClientCapabilities) *tfplugin6.ClientCapabilities {
	return &tfplugin6.ClientCapabilities{
		DeferralAllowed:            in.DeferralAllowed,
		WriteOnlyAttributesAllowed: in.WriteOnlyAttributesAllowed,
	}
}

// codec encodes request values and decodes answers for one call, collecting
// the problems as diagnostics that name the provider, the call and the
// object, so a malformed answer never becomes a panic further up.
type codec struct {
	provider string
	rpc      string
	typeName string
	problems diags.Diagnostics
}

func (c *codec) encode(what string, v cty.Value, ty cty.Type) *tfplugin6.DynamicValue {
	dv, err := value.Encode(v, ty)
	if err != nil {
		c.problems = c.problems.Append(diags.Errorf("Cannot send a value to the provider",
			"Terrane could not encode the %s of %s for %s of provider %s: %s. This is a bug in Terrane; please report it.",
			what, c.typeName, c.rpc, c.provider, err))
		return nil
	}
	return &tfplugin6.DynamicValue{Msgpack: dv.Msgpack}
}

func (c *codec) decode(what string, dv *tfplugin6.DynamicValue, ty cty.Type) cty.Value {
	v, err := value.Decode(value.Dynamic{Msgpack: dv.GetMsgpack(), JSON: dv.GetJson()}, ty)
	if err != nil {
		c.problems = c.problems.Append(diags.Errorf("Provider returned an invalid value",
			"The provider %s answered %s for %s with a %s that does not match its own schema: %s. The provider is broken; report it to its developers.",
			c.provider, c.rpc, c.typeName, what, err))
		return cty.UnknownVal(ty)
	}
	return v
}

// encodeIdentity encodes an identity; cty.NilVal (no identity) sends none.
func (c *codec) encodeIdentity(v cty.Value, identity *providers.IdentitySchema) *tfplugin6.ResourceIdentityData {
	if v == cty.NilVal || identity == nil {
		return nil
	}
	return &tfplugin6.ResourceIdentityData{IdentityData: c.encode("identity", v, identity.ImpliedType())}
}

// decodeIdentity decodes an identity the provider returned. Without an
// identity schema for the type there is nothing to decode it against, and
// the answer is cty.NilVal, like a type without identity.
func (c *codec) decodeIdentity(in *tfplugin6.ResourceIdentityData, identity *providers.IdentitySchema) cty.Value {
	if in == nil || identity == nil {
		return cty.NilVal
	}
	return c.decode("identity", in.GetIdentityData(), identity.ImpliedType())
}

// result merges the codec's problems into the provider's diagnostics.
func (c *codec) result(providerDiags []*tfplugin6.Diagnostic) diags.Diagnostics {
	return diagnostics(providerDiags).Append(c.problems)
}
