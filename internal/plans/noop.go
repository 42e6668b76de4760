package plans

import (
	"bytes"
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/value"
)

// EncodeUnchanged encodes a no-op change without copying its values, when
// they are exactly the object its state record holds: both values become
// the record's own attribute JSON (storedJSON), which the state already
// keeps in memory. It reports false, encoding nothing, for any other change
// — one that moves, imports or generates configuration, a deposed object,
// a value the provider's upgrade or refresh changed, or a planned value
// that differs from the prior one in anything, marks included.
//
// A plan keeps a change for every instance, most of them no-ops that
// rendering and apply skip; holding their values twice more, encoded,
// would make a plan's memory grow with the state rather than with what
// changes. The values stay exact for whoever decodes them (value.Decode
// reads JSON as well as msgpack); a plan file needs msgpack, see
// Changes.EncodeValuesAsMsgpack.
func (c *ResourceInstanceChange) EncodeUnchanged(types ObjectTypes, storedJSON []byte) (*ResourceInstanceChangeSrc, bool, error) {
	if c.Action != NoOp || c.DeposedKey != addrs.NotDeposed || c.Moved() || c.Importing != nil || c.GeneratedConfig != "" || len(storedJSON) == 0 {
		return nil, false, nil
	}
	if c.Before == cty.NilVal || c.After == cty.NilVal || c.Before.IsNull() {
		return nil, false, nil
	}
	before, beforeSensitive := unmarkSensitive(c.Before)
	after, afterSensitive := unmarkSensitive(c.After)
	if !after.RawEquals(before) || !samePaths(beforeSensitive, afterSensitive) {
		return nil, false, nil
	}
	encoded, err := value.EncodeJSON(before, types.Value)
	if err != nil || !bytes.Equal(encoded, storedJSON) {
		return nil, false, nil
	}
	src := &ResourceInstanceChangeSrc{ResourceInstanceChangeHeader: c.ResourceInstanceChangeHeader, ChangeSrc: ChangeSrc{Action: NoOp,
		Before: value.Dynamic{JSON: storedJSON}, After: value.Dynamic{JSON: storedJSON},
		BeforeSensitivePaths: beforeSensitive, AfterSensitivePaths: afterSensitive}}
	if src.BeforeIdentity, err = encodeIdentity(c.BeforeIdentity, types.Identity); err != nil {
		return nil, false, fmt.Errorf("encoding the planned change to %s: before identity: %w", c.ObjectName(), err)
	}
	if src.AfterIdentity, err = encodeIdentity(c.AfterIdentity, types.Identity); err != nil {
		return nil, false, fmt.Errorf("encoding the planned change to %s: after identity: %w", c.ObjectName(), err)
	}
	return src, true, nil
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

// EncodeValuesAsMsgpack re-encodes as msgpack the resource instance change
// values held as JSON (see EncodeUnchanged), as a plan file requires.
func (c *Changes) EncodeValuesAsMsgpack(types ValueTypes) error {
	for _, change := range c.Resources {
		if !isJSON(change.Before) && !isJSON(change.After) {
			continue
		}
		ty, err := types(change)
		if err != nil {
			return fmt.Errorf("encoding the planned change to %s: %w", change.ObjectName(), err)
		}
		if change.Before, err = jsonAsMsgpack(change.Before, ty.Value); err != nil {
			return fmt.Errorf("encoding the planned change to %s: before value: %w", change.ObjectName(), err)
		}
		if change.After, err = jsonAsMsgpack(change.After, ty.Value); err != nil {
			return fmt.Errorf("encoding the planned change to %s: after value: %w", change.ObjectName(), err)
		}
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
