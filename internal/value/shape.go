package value

import (
	"bytes"
	"fmt"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// maxMsgpackDepth bounds how deeply arrays and maps may nest in a value from
// a provider. Real schemas nest a few dozen levels at most; the bound keeps a
// hostile answer from exhausting the stack of the recursive decoder.
const maxMsgpackDepth = 2000

// checkMsgpackShape walks the structure of one msgpack item with the msgpack
// library, before cty decodes it, and rejects what cty would not survive or
// would silently accept:
//   - an array or map header declaring more elements than there are bytes
//     left (cty allocates the declared length up front, so a five-byte input
//     could otherwise ask for gigabytes);
//   - nesting deeper than maxMsgpackDepth;
//   - a map key that is not a string (cty reads it as "" and carries on);
//   - bytes after the item (cty stops reading after one item).
func checkMsgpackShape(b []byte) error {
	r := bytes.NewReader(b)
	dec := msgpack.NewDecoder(r)
	pending := []container{{left: 1}}
	for len(pending) > 0 {
		top := &pending[len(pending)-1]
		if top.left == 0 {
			pending = pending[:len(pending)-1]
			continue
		}
		top.left--
		if top.isMap && top.left%2 == 1 {
			if err := checkMapKey(dec); err != nil {
				return fmt.Errorf("offset %d: %w", len(b)-r.Len(), err)
			}
		}
		items, isMap, err := nextItemChildren(dec, r)
		if err != nil {
			return fmt.Errorf("offset %d: %w", len(b)-r.Len(), err)
		}
		if items > 0 {
			if len(pending) >= maxMsgpackDepth {
				return fmt.Errorf("offset %d: arrays and maps nest more than %d levels deep", len(b)-r.Len(), maxMsgpackDepth)
			}
			pending = append(pending, container{left: items, isMap: isMap})
		}
	}
	if r.Len() > 0 {
		return fmt.Errorf("%d unexpected bytes after the value", r.Len())
	}
	return nil
}

// container is an array or map being walked: how many items of it are left
// to read, and whether they alternate key, value.
type container struct {
	left  int
	isMap bool
}

// checkMapKey requires the next item, a map key, to be a string: both maps
// and objects are keyed by strings on the wire.
func checkMapKey(dec *msgpack.Decoder) error {
	code, err := dec.PeekCode()
	if err != nil {
		return fmt.Errorf("the value ends early")
	}
	if msgpcode.IsString(code) || msgpcode.IsBin(code) {
		return nil
	}
	return fmt.Errorf("a map key is not a string (msgpack type byte 0x%02x)", code)
}

// nextItemChildren consumes the next item's header if it is an array or a
// map, returning how many child items follow it, or skips the whole item if
// it is a scalar, string, binary or extension.
func nextItemChildren(dec *msgpack.Decoder, r *bytes.Reader) (children int, isMap bool, err error) {
	code, err := dec.PeekCode()
	if err != nil {
		return 0, false, fmt.Errorf("the value ends early")
	}
	switch {
	case msgpcode.IsFixedArray(code) || code == msgpcode.Array16 || code == msgpcode.Array32:
		n, err := dec.DecodeArrayLen()
		if err != nil {
			return 0, false, err
		}
		// Every element takes at least one byte.
		if n > r.Len() {
			return 0, false, fmt.Errorf("an array declares %d elements but only %d bytes follow", n, r.Len())
		}
		return n, false, nil
	case msgpcode.IsFixedMap(code) || code == msgpcode.Map16 || code == msgpcode.Map32:
		n, err := dec.DecodeMapLen()
		if err != nil {
			return 0, false, err
		}
		if 2*n > r.Len() {
			return 0, false, fmt.Errorf("a map declares %d entries but only %d bytes follow", n, r.Len())
		}
		return 2 * n, true, nil
	default:
		if err := dec.Skip(); err != nil {
			return 0, false, fmt.Errorf("the value ends early or is not msgpack: %w", err)
		}
		return 0, false, nil
	}
}
