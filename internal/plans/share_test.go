package plans

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
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

func resourceChange(t *testing.T, action Action, before, after cty.Value) *ResourceInstanceChange {
	t.Helper()
	addr := instanceAddr(t, "tpf_server.web[3]")
	return &ResourceInstanceChange{
		ResourceInstanceChangeHeader: ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr},
		Change:                       Change{Action: action, Before: before, After: after},
	}
}

// sameBytes reports whether a and b are the same memory, not only equal.
func sameBytes(a, b []byte) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

var serverTypes = ObjectTypes{Value: serverType}

func serverVal(name string, secrets ...cty.Value) cty.Value {
	list := cty.ListValEmpty(cty.String)
	if len(secrets) > 0 {
		list = cty.ListVal(secrets)
	}
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "secrets": list})
}

func recordOf(t *testing.T, v cty.Value) []byte {
	t.Helper()
	unmarked, _ := v.UnmarkDeep()
	recorded, err := value.EncodeJSON(unmarked, serverType)
	if err != nil {
		t.Fatal(err)
	}
	return recorded
}

func TestEncodeSharingHoldsAnUnchangedObjectAsItsRecordAndDecodesExactly(t *testing.T) {
	val := serverVal("web", cty.StringVal("a").Mark(marks.Sensitive))
	recorded := recordOf(t, val)
	known, ok := RecordEncoding(val, serverType, recorded)
	if !ok {
		t.Fatal("RecordEncoding refused the record its value was decoded from")
	}
	change := resourceChange(t, NoOp, val, val)
	src, err := change.EncodeSharing(serverTypes, known)
	if err != nil {
		t.Fatal(err)
	}
	if !sameBytes(src.Before.JSON, recorded) || !sameBytes(src.After.JSON, recorded) || len(src.Before.Msgpack) > 0 {
		t.Errorf("the no-op holds copies of the recorded value, not the record's own bytes")
	}
	decoded, err := src.Decode(serverTypes)
	if err != nil {
		t.Fatal(err)
	}
	if !decoded.Before.RawEquals(val) || !decoded.After.RawEquals(val) {
		t.Errorf("decoded %#v / %#v; want %#v with its sensitive mark", decoded.Before, decoded.After, val)
	}

	// A plan file holds msgpack: converting gives what Encode gives, once.
	plan := &Plan{Changes: Changes{Resources: []*ResourceInstanceChangeSrc{src}}}
	if err := plan.EncodeValuesAsMsgpack(func(*ResourceInstanceChangeSrc) (ObjectTypes, error) { return serverTypes, nil }); err != nil {
		t.Fatal(err)
	}
	full, err := change.Encode(serverTypes)
	if err != nil {
		t.Fatal(err)
	}
	if string(src.Before.Msgpack) != string(full.Before.Msgpack) || string(src.After.Msgpack) != string(full.After.Msgpack) {
		t.Errorf("converted values differ from the encoded change's")
	}
	if !sameBytes(src.Before.Msgpack, src.After.Msgpack) {
		t.Errorf("converting made two copies of a value the change held once")
	}
}

func TestRecordEncodingRefusesARecordThatIsNotTheValue(t *testing.T) {
	val := serverVal("web")
	for name, recorded := range map[string][]byte{
		"upgraded value differs": recordOf(t, serverVal("db")),
		"no record":              nil,
	} {
		if _, ok := RecordEncoding(val, serverType, recorded); ok {
			t.Errorf("%s: RecordEncoding accepted it", name)
		}
	}
	if _, ok := RecordEncoding(cty.NullVal(serverType), serverType, []byte("null")); ok {
		t.Errorf("RecordEncoding accepted a null value")
	}
}

func TestEncodeSharingEncodesWhatDiffersFromTheKnownValues(t *testing.T) {
	val := serverVal("web")
	known, _ := RecordEncoding(val, serverType, recordOf(t, val))
	renamed := serverVal("db")
	tests := map[string]struct {
		change              *ResourceInstanceChange
		beforeJSON, afterJS bool
	}{
		"update keeps the record as before": {resourceChange(t, Update, val, renamed), true, false},
		"refreshed value differs":           {resourceChange(t, NoOp, renamed, renamed), false, false},
		"delete":                            {resourceChange(t, Delete, val, cty.NullVal(serverType)), true, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src, err := tc.change.EncodeSharing(serverTypes, known)
			if err != nil {
				t.Fatal(err)
			}
			if isJSON(src.Before) != tc.beforeJSON || isJSON(src.After) != tc.afterJS {
				t.Errorf("before held as the record: %v, after: %v; want %v, %v", isJSON(src.Before), isJSON(src.After), tc.beforeJSON, tc.afterJS)
			}
			decoded, err := src.Decode(serverTypes)
			if err != nil {
				t.Fatal(err)
			}
			if !decoded.Before.RawEquals(tc.change.Before) || !decoded.After.RawEquals(tc.change.After) {
				t.Errorf("decoded %#v / %#v; want %#v / %#v", decoded.Before, decoded.After, tc.change.Before, tc.change.After)
			}
		})
	}
}

func TestEncodeHoldsAValueThatDidNotChangeOnce(t *testing.T) {
	identityType := cty.Object(map[string]cty.Type{"id": cty.String})
	identity := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-1")})
	types := ObjectTypes{Value: serverType, Identity: identityType}
	before := serverVal("web", cty.StringVal("a").Mark(marks.Sensitive))
	// Marks are not part of the encoding: an after value that differs only
	// in them shares the bytes and keeps its own sensitive paths.
	after := serverVal("web", cty.StringVal("a"))
	change := resourceChange(t, NoOp, before, after)
	change.BeforeIdentity, change.AfterIdentity = identity, identity
	src, err := change.Encode(types)
	if err != nil {
		t.Fatal(err)
	}
	if !sameBytes(src.Before.Msgpack, src.After.Msgpack) || !sameBytes(src.BeforeIdentity.Msgpack, src.AfterIdentity.Msgpack) {
		t.Errorf("the change holds two copies of a value that did not change")
	}
	if len(src.BeforeSensitivePaths) != 1 || len(src.AfterSensitivePaths) != 0 {
		t.Errorf("sensitive paths %v / %v; want the before value's element only", src.BeforeSensitivePaths, src.AfterSensitivePaths)
	}
	decoded, err := src.Decode(types)
	if err != nil {
		t.Fatal(err)
	}
	if !decoded.Before.RawEquals(before) || !decoded.After.RawEquals(after) || !decoded.AfterIdentity.RawEquals(identity) {
		t.Errorf("decoded %#v / %#v; want %#v / %#v", decoded.Before, decoded.After, before, after)
	}

	// The drift of a refreshed object and the no-op planned from it hold
	// the refreshed value once between them.
	refreshed := serverVal("web-renamed-outside")
	drift, err := resourceChange(t, Update, before, refreshed).Encode(types)
	if err != nil {
		t.Fatal(err)
	}
	noop, err := resourceChange(t, NoOp, refreshed, refreshed).EncodeSharing(types, KnownEncoding{Value: refreshed, Encoded: drift.After})
	if err != nil {
		t.Fatal(err)
	}
	if !sameBytes(noop.Before.Msgpack, drift.After.Msgpack) || !sameBytes(noop.After.Msgpack, drift.After.Msgpack) {
		t.Errorf("the no-op holds a copy of the refreshed value its drift holds")
	}
}

func TestEncodeValuesAsMsgpackConvertsDriftToo(t *testing.T) {
	val := serverVal("web")
	known, _ := RecordEncoding(val, serverType, recordOf(t, val))
	drift, err := resourceChange(t, Update, val, serverVal("db")).EncodeSharing(serverTypes, known)
	if err != nil {
		t.Fatal(err)
	}
	plan := &Plan{DriftedResources: []*ResourceInstanceChangeSrc{drift}}
	if err := plan.EncodeValuesAsMsgpack(func(*ResourceInstanceChangeSrc) (ObjectTypes, error) { return serverTypes, nil }); err != nil {
		t.Fatal(err)
	}
	if isJSON(drift.Before) || len(drift.Before.Msgpack) == 0 {
		t.Errorf("the drift's before value is still the record's JSON; a plan file cannot hold it")
	}
}
