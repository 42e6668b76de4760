package plans

import (
	"bytes"
	"fmt"
	"github.com/terrane/terrane/internal/marks"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/value"
)

// A plan keeps a change for every instance, most of them no-ops that
// rendering and apply skip, and a drift change for every object a refresh
// found different. Were each to hold its values encoded afresh, a plan's
// memory would grow with the state rather than with what changes: an
// unchanged object would be held once in its state record, twice more in
// its no-op change, and twice more in its drift. So a change shares the
// bytes of any value the plan already holds encoded, and a change whose
// after value equals its before value holds that encoding once.

// KnownEncoding is a value and an encoding of it that a plan already holds:
// a state record's attribute JSON, or the encoded refreshed object a drift
// change carries. Value carries no marks.
type KnownEncoding struct {
	Value   cty.Value
	Encoded value.Dynamic
}

// RecordEncoding returns recordJSON, a state record's attribute JSON, as the
// known encoding of v, the object decoded from it. That holds unless the
// provider's upgrade changed the value; ok is false then, and when v is
// null.
func RecordEncoding(v cty.Value, ty cty.Type, recordJSON []byte) (known KnownEncoding, ok bool) {
	if len(recordJSON) == 0 || v == cty.NilVal || v.IsNull() {
		return KnownEncoding{}, false
	}
	v, _ = marks.UnmarkDeep(v)
	encoded, err := value.EncodeJSON(v, ty)
	if err != nil || !bytes.Equal(encoded, recordJSON) {
		return KnownEncoding{}, false
	}
	return KnownEncoding{Value: v, Encoded: value.Dynamic{JSON: recordJSON}}, true
}

// EncodeSharing is Encode for a change some of whose values the plan
// already holds encoded: a value equal to a known one, marks aside, shares
// its bytes. A value shared from a state record stays JSON, which
// value.Decode reads as exactly as msgpack; a plan file needs msgpack, see
// Plan.EncodeValuesAsMsgpack.
func (c *ResourceInstanceChange) EncodeSharing(types ObjectTypes, known ...KnownEncoding) (*ResourceInstanceChangeSrc, error) {
	src, err := c.Change.encode(types, known)
	if err != nil {
		return nil, fmt.Errorf("encoding the planned change to %s: %w", c.ObjectName(), err)
	}
	return &ResourceInstanceChangeSrc{ResourceInstanceChangeHeader: c.ResourceInstanceChangeHeader, ChangeSrc: *src}, nil
}

// encodedValue is one of a change's values, encoded.
type encodedValue struct {
	KnownEncoding
	sensitive []cty.Path
}

// encodeShared encodes v as ty, sharing the bytes of a known encoding of an
// equal value. The paths that carried the sensitive mark are returned
// beside it, as the wire format keeps them. Null is left empty, which
// value.Decode reads as null of any type: a create's before and a delete's
// after cost nothing.
func encodeShared(v cty.Value, ty cty.Type, known []KnownEncoding) (encodedValue, error) {
	if v == cty.NilVal || v.IsNull() {
		return encodedValue{}, nil
	}
	if err := refuseEphemeral(v); err != nil {
		return encodedValue{}, err
	}
	unmarked, sensitive := unmarkSensitive(v)
	for _, k := range known {
		if k.Value != cty.NilVal && k.Value.RawEquals(unmarked) {
			return encodedValue{KnownEncoding{Value: unmarked, Encoded: k.Encoded}, sensitive}, nil
		}
	}
	encoded, err := value.Encode(unmarked, ty)
	if err != nil {
		return encodedValue{}, err
	}
	// msgpack encodes into a buffer that grows by doubling; a value the
	// plan keeps should not keep the unused part with it.
	encoded.Msgpack = bytes.Clone(encoded.Msgpack)
	return encodedValue{KnownEncoding{Value: unmarked, Encoded: encoded}, sensitive}, nil
}

func samePaths(a, b []cty.Path) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equals(b[i]) {
			return false
		}
	}
	return true
}

// ValueTypes gives the types a resource instance change's values are
// encoded with, from its provider's schema.
type ValueTypes func(change *ResourceInstanceChangeSrc) (ObjectTypes, error)

// EncodeValuesAsMsgpack re-encodes as msgpack the values of resource
// instance changes and drift held as a state record's JSON (see
// EncodeSharing), as a plan file requires. A before and after value that
// share bytes are converted once and still share them.
func (p *Plan) EncodeValuesAsMsgpack(types ValueTypes) error {
	for _, list := range [][]*ResourceInstanceChangeSrc{p.Changes.Resources, p.DriftedResources} {
		for _, change := range list {
			if err := change.encodeValuesAsMsgpack(types); err != nil {
				return err
			}
		}
	}
	return nil
}

func (change *ResourceInstanceChangeSrc) encodeValuesAsMsgpack(types ValueTypes) error {
	if !isJSON(change.Before) && !isJSON(change.After) {
		return nil
	}
	ty, err := types(change)
	if err != nil {
		return fmt.Errorf("encoding the planned change to %s: %w", change.ObjectName(), err)
	}
	shared := isJSON(change.Before) && isJSON(change.After) && &change.Before.JSON[0] == &change.After.JSON[0]
	if change.Before, err = jsonAsMsgpack(change.Before, ty.Value); err != nil {
		return fmt.Errorf("encoding the planned change to %s: before value: %w", change.ObjectName(), err)
	}
	if shared {
		change.After = change.Before
	} else if change.After, err = jsonAsMsgpack(change.After, ty.Value); err != nil {
		return fmt.Errorf("encoding the planned change to %s: after value: %w", change.ObjectName(), err)
	}
	return nil
}

func isJSON(d value.Dynamic) bool { return len(d.Msgpack) == 0 && len(d.JSON) > 0 }

func jsonAsMsgpack(d value.Dynamic, ty cty.Type) (value.Dynamic, error) {
	if !isJSON(d) {
		return d, nil
	}
	v, err := value.DecodeJSON(d.JSON, ty)
	if err != nil {
		return value.Dynamic{}, err
	}
	return value.Encode(v, ty)
}
