package plans

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/lang/marks"
	"github.com/terrane/terrane/internal/value"
)

func instanceAddr(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	addr, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return addr
}

func noOpChange(t *testing.T, before, after cty.Value) *ResourceInstanceChange {
	t.Helper()
	addr := instanceAddr(t, "tpf_server.web[3]")
	return &ResourceInstanceChange{
		ResourceInstanceChangeHeader: ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr},
		Change:                       Change{Action: NoOp, Before: before, After: after},
	}
}

func TestEncodeUnchangedSharesTheRecordedValueAndDecodesExactly(t *testing.T) {
	val := cty.ObjectVal(map[string]cty.Value{
		"name":    cty.StringVal("web"),
		"secrets": cty.ListVal([]cty.Value{cty.StringVal("a").Mark(marks.Sensitive)}),
	})
	unmarked, _ := val.UnmarkDeep()
	recorded, err := value.EncodeJSON(unmarked, serverType)
	if err != nil {
		t.Fatal(err)
	}
	change := noOpChange(t, val, val)
	src, ok, err := change.EncodeUnchanged(ObjectTypes{Value: serverType}, recorded)
	if err != nil || !ok {
		t.Fatalf("EncodeUnchanged = %v, %v; want the no-op encoded", ok, err)
	}
	if &src.Before.JSON[0] != &recorded[0] || &src.After.JSON[0] != &recorded[0] || len(src.Before.Msgpack) > 0 {
		t.Errorf("the change holds copies of the recorded value, not the record's own bytes")
	}
	decoded, err := src.Decode(ObjectTypes{Value: serverType})
	if err != nil {
		t.Fatal(err)
	}
	if !decoded.Before.RawEquals(val) || !decoded.After.RawEquals(val) {
		t.Errorf("decoded %#v / %#v; want %#v with its sensitive mark", decoded.Before, decoded.After, val)
	}

	// A plan file holds msgpack: converting gives what Encode gives.
	changes := &Changes{Resources: []*ResourceInstanceChangeSrc{src}}
	if err := changes.EncodeValuesAsMsgpack(func(*ResourceInstanceChangeSrc) (ObjectTypes, error) {
		return ObjectTypes{Value: serverType}, nil
	}); err != nil {
		t.Fatal(err)
	}
	full, err := change.Encode(ObjectTypes{Value: serverType})
	if err != nil {
		t.Fatal(err)
	}
	if string(src.Before.Msgpack) != string(full.Before.Msgpack) || string(src.After.Msgpack) != string(full.After.Msgpack) {
		t.Errorf("converted values differ from the encoded change's")
	}
}

func TestEncodeUnchangedLeavesOtherChangesToEncode(t *testing.T) {
	val := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("web"), "secrets": cty.ListValEmpty(cty.String)})
	recorded, err := value.EncodeJSON(val, serverType)
	if err != nil {
		t.Fatal(err)
	}
	renamed := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("db"), "secrets": cty.ListValEmpty(cty.String)})
	tests := map[string]func(c *ResourceInstanceChange) []byte{
		"update":                  func(c *ResourceInstanceChange) []byte { c.Action = Update; return recorded },
		"refreshed value differs": func(c *ResourceInstanceChange) []byte { c.Before, c.After = renamed, renamed; return recorded },
		"planned value differs":   func(c *ResourceInstanceChange) []byte { c.After = renamed; return recorded },
		"marked differently":      func(c *ResourceInstanceChange) []byte { c.After = val.Mark(marks.Sensitive); return recorded },
		"moved": func(c *ResourceInstanceChange) []byte {
			c.PrevRunAddr = instanceAddr(t, "tpf_server.old")
			return recorded
		},
		"importing":         func(c *ResourceInstanceChange) []byte { c.Importing = &Importing{ID: "i-1"}; return recorded },
		"deposed object":    func(c *ResourceInstanceChange) []byte { c.DeposedKey = "00000001"; return recorded },
		"no recorded value": func(c *ResourceInstanceChange) []byte { return nil },
	}
	for name, modify := range tests {
		t.Run(name, func(t *testing.T) {
			change := noOpChange(t, val, val)
			stored := modify(change)
			if _, ok, err := change.EncodeUnchanged(ObjectTypes{Value: serverType}, stored); ok || err != nil {
				t.Errorf("EncodeUnchanged = %v, %v; want the change left to Encode", ok, err)
			}
		})
	}
}
