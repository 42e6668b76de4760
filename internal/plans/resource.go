package plans

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
)

// ResourceInstanceChange is a planned change to one object of a resource
// instance: its current object, or a deposed one when DeposedKey is set.
type ResourceInstanceChange struct {
	ResourceInstanceChangeHeader
	Change
}

// ResourceInstanceChangeSrc is a ResourceInstanceChange with encoded values.
type ResourceInstanceChangeSrc struct {
	ResourceInstanceChangeHeader
	ChangeSrc
}

// ResourceInstanceChangeHeader is what both forms of a resource instance
// change share: where the change applies and what the provider needs back.
type ResourceInstanceChangeHeader struct {
	Addr addrs.AbsResourceInstance
	// PrevRunAddr is where the previous run tracked the object; it differs
	// from Addr only when a moved block moved it.
	PrevRunAddr addrs.AbsResourceInstance
	DeposedKey  addrs.DeposedKey
	// ProviderAddr is the provider configuration the change was planned
	// with, and so the one that must apply it.
	ProviderAddr addrs.AbsProviderConfigInstance
	ActionReason ActionReason
	// RequiredReplace lists the attributes whose change forced a
	// replacement; empty unless the action replaces.
	RequiredReplace []cty.Path
	// Private is the provider's opaque planned private data, handed back
	// verbatim on apply.
	Private []byte
}

// Moved reports whether the object was tracked at another address by the
// previous run.
func (h *ResourceInstanceChangeHeader) Moved() bool {
	return h.PrevRunAddr.String() != h.Addr.String()
}

// ObjectName names the changed object for messages: the instance address,
// with the deposed key when the change is to a deposed object.
func (h *ResourceInstanceChangeHeader) ObjectName() string {
	if h.DeposedKey != addrs.NotDeposed {
		return fmt.Sprintf("%s (deposed object %s)", h.Addr, h.DeposedKey)
	}
	return h.Addr.String()
}

// Encode encodes the change's values as the resource type's types.
func (c *ResourceInstanceChange) Encode(types ObjectTypes) (*ResourceInstanceChangeSrc, error) {
	return c.EncodeSharing(types)
}

// Decode decodes the change's values as the resource type's types.
func (c *ResourceInstanceChangeSrc) Decode(types ObjectTypes) (*ResourceInstanceChange, error) {
	change, err := c.ChangeSrc.Decode(types)
	if err != nil {
		return nil, fmt.Errorf("decoding the planned change to %s: %w", c.ObjectName(), err)
	}
	return &ResourceInstanceChange{ResourceInstanceChangeHeader: c.ResourceInstanceChangeHeader, Change: *change}, nil
}

// DeferredResourceInstanceChange is a change the plan could only partly
// work out and left for a later run, with the reason why.
type DeferredResourceInstanceChange struct {
	Reason DeferredReason
	Change *ResourceInstanceChange
}

// DeferredResourceInstanceChangeSrc is a DeferredResourceInstanceChange
// with encoded values.
type DeferredResourceInstanceChangeSrc struct {
	Reason DeferredReason
	Change *ResourceInstanceChangeSrc
}

// Encode encodes the deferred change's values.
func (d *DeferredResourceInstanceChange) Encode(types ObjectTypes) (*DeferredResourceInstanceChangeSrc, error) {
	src, err := d.Change.Encode(types)
	if err != nil {
		return nil, err
	}
	return &DeferredResourceInstanceChangeSrc{Reason: d.Reason, Change: src}, nil
}

// Decode decodes the deferred change's values.
func (d *DeferredResourceInstanceChangeSrc) Decode(types ObjectTypes) (*DeferredResourceInstanceChange, error) {
	change, err := d.Change.Decode(types)
	if err != nil {
		return nil, err
	}
	return &DeferredResourceInstanceChange{Reason: d.Reason, Change: change}, nil
}

// OutputChange is a planned change to a root module output value.
type OutputChange struct {
	Addr addrs.AbsOutputValue
	Change
	// Sensitive is true when the output is declared sensitive, so that
	// every value of the change is hidden, not only its marked parts.
	Sensitive bool
}

// OutputChangeSrc is an OutputChange with encoded values.
type OutputChangeSrc struct {
	Addr addrs.AbsOutputValue
	ChangeSrc
	Sensitive bool
}

// Encode encodes the output change. Outputs have no schema, so their values
// are encoded with their own types (cty.DynamicPseudoType).
func (c *OutputChange) Encode() (*OutputChangeSrc, error) {
	src, err := c.Change.Encode(ObjectTypes{Value: cty.DynamicPseudoType})
	if err != nil {
		return nil, fmt.Errorf("encoding the planned change to %s: %w", c.Addr, err)
	}
	return &OutputChangeSrc{Addr: c.Addr, ChangeSrc: *src, Sensitive: c.Sensitive}, nil
}

// Decode decodes the output change.
func (c *OutputChangeSrc) Decode() (*OutputChange, error) {
	change, err := c.ChangeSrc.Decode(ObjectTypes{Value: cty.DynamicPseudoType})
	if err != nil {
		return nil, fmt.Errorf("decoding the planned change to %s: %w", c.Addr, err)
	}
	return &OutputChange{Addr: c.Addr, Change: *change, Sensitive: c.Sensitive}, nil
}
