package plans

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
)

var serverType = cty.Object(map[string]cty.Type{
	"name":    cty.String,
	"secrets": cty.List(cty.String),
})

func TestChangeEncodeDecodeKeepsUnknownsAndSensitivePaths(t *testing.T) {
	before := cty.ObjectVal(map[string]cty.Value{
		"name":    cty.StringVal("web"),
		"secrets": cty.ListVal([]cty.Value{cty.StringVal("a").Mark(marks.Sensitive), cty.StringVal("b")}),
	})
	after := cty.ObjectVal(map[string]cty.Value{
		"name":    cty.UnknownVal(cty.String).RefineNotNull(),
		"secrets": cty.UnknownVal(cty.List(cty.String)).Mark(marks.Sensitive),
	})
	change := &Change{Action: Update, Before: before, After: after}
	src, err := change.Encode(ObjectTypes{Value: serverType})
	if err != nil {
		t.Fatal(err)
	}
	wantBefore := cty.GetAttrPath("secrets").Index(cty.NumberIntVal(0))
	if len(src.BeforeSensitivePaths) != 1 || !src.BeforeSensitivePaths[0].Equals(wantBefore) {
		t.Errorf("before sensitive paths %#v, want [%#v]", src.BeforeSensitivePaths, wantBefore)
	}
	decoded, err := src.Decode(ObjectTypes{Value: serverType})
	if err != nil {
		t.Fatal(err)
	}
	if !decoded.Before.RawEquals(before) || !decoded.After.RawEquals(after) {
		t.Errorf("round trip changed the values:\n before %#v\n  after %#v", decoded.Before, decoded.After)
	}
}

func TestChangeEncodeRefusesValuesOfTheWrongType(t *testing.T) {
	change := &Change{Action: Create, After: cty.StringVal("not an object")}
	if _, err := change.Encode(ObjectTypes{Value: serverType}); err == nil || !strings.Contains(err.Error(), "after value") {
		t.Errorf("error %v; want one about the after value", err)
	}
}

func TestChangeSrcDecodeErrors(t *testing.T) {
	good, err := (&Change{Action: Create, After: cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("web"), "secrets": cty.ListValEmpty(cty.String),
	})}).Encode(ObjectTypes{Value: serverType})
	if err != nil {
		t.Fatal(err)
	}
	strayPath := *good
	strayPath.AfterSensitivePaths = []cty.Path{cty.GetAttrPath("password")}
	strayIdentity := *good
	strayIdentity.AfterIdentity = good.After
	wrongType := *good
	for _, tc := range []struct {
		name     string
		src      ChangeSrc
		types    ObjectTypes
		wantText string
	}{
		{"sensitive path into nothing", strayPath, ObjectTypes{Value: serverType}, "sensitive path .password is not in the value"},
		{"identity without identity type", strayIdentity, ObjectTypes{Value: serverType}, "declares no identity schema"},
		{"value of another type", wrongType, ObjectTypes{Value: cty.Number}, "after value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.src.Decode(tc.types); err == nil || !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %v; want one saying %q", err, tc.wantText)
			}
		})
	}
}

func TestResourceInstanceChangeErrorsNameTheObject(t *testing.T) {
	addr, _ := addrs.ParseAbsResourceInstanceStr(`module.a.null_resource.b["k"]`)
	change := &ResourceInstanceChange{
		ResourceInstanceChangeHeader: ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr, DeposedKey: "00000001"},
		Change:                       Change{Action: Delete, Before: cty.True},
	}
	_, err := change.Encode(ObjectTypes{Value: serverType})
	if err == nil || !strings.Contains(err.Error(), `module.a.null_resource.b["k"] (deposed object 00000001)`) {
		t.Errorf("error %v; want one naming the deposed object", err)
	}
}

func TestActionNames(t *testing.T) {
	for action, want := range map[Action]string{
		NoOp: "no-op", Create: "create", Read: "read", Update: "update", Delete: "delete", Forget: "forget",
		DeleteThenCreate: "delete-then-create", CreateThenDelete: "create-then-delete", CreateThenForget: "create-then-forget",
	} {
		if got := action.String(); got != want {
			t.Errorf("%q.String() = %q, want %q", rune(action), got, want)
		}
		if action.IsReplace() != strings.Contains(want, "-then-") {
			t.Errorf("%s.IsReplace() = %t", want, action.IsReplace())
		}
	}
}

func TestChangesIsEmpty(t *testing.T) {
	addr, _ := addrs.ParseAbsResourceInstanceStr("null_resource.a")
	moved, _ := addrs.ParseAbsResourceInstanceStr("null_resource.b")
	noop := &ResourceInstanceChangeSrc{ResourceInstanceChangeHeader: ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: addr}}
	move := &ResourceInstanceChangeSrc{ResourceInstanceChangeHeader: ResourceInstanceChangeHeader{Addr: addr, PrevRunAddr: moved}}
	create := &ResourceInstanceChangeSrc{ResourceInstanceChangeHeader: noop.ResourceInstanceChangeHeader, ChangeSrc: ChangeSrc{Action: Create}}
	for _, tc := range []struct {
		name    string
		changes Changes
		want    bool
	}{
		{"nothing", Changes{}, true},
		{"only no-ops", Changes{Resources: []*ResourceInstanceChangeSrc{noop}}, true},
		{"a move", Changes{Resources: []*ResourceInstanceChangeSrc{move}}, false},
		{"a create", Changes{Resources: []*ResourceInstanceChangeSrc{noop, create}}, false},
		{"an output update", Changes{Outputs: []*OutputChangeSrc{{ChangeSrc: ChangeSrc{Action: Update}}}}, false},
	} {
		if got := tc.changes.IsEmpty(); got != tc.want {
			t.Errorf("%s: IsEmpty() = %t, want %t", tc.name, got, tc.want)
		}
	}
	lookup := &Changes{Resources: []*ResourceInstanceChangeSrc{noop}}
	if lookup.ResourceInstance(addr) != noop || lookup.ResourceInstance(moved) != nil || lookup.ResourceInstanceDeposed(addr, "00000001") != nil {
		t.Error("ResourceInstance does not find exactly the change to the current object at the address")
	}
}
