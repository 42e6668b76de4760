package value

import (
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/proto"

	"github.com/terrane/terrane/proto/tfplugin5"
	"github.com/terrane/terrane/proto/tfplugin6"
)

func attr6(name string) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_AttributeName{AttributeName: name}}
}
func int6(i int64) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_ElementKeyInt{ElementKeyInt: i}}
}
func str6(s string) *tfplugin6.AttributePath_Step {
	return &tfplugin6.AttributePath_Step{Selector: &tfplugin6.AttributePath_Step_ElementKeyString{ElementKeyString: s}}
}

func TestPathToProto(t *testing.T) {
	setElem := cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(22)})
	tests := []struct {
		name string
		path cty.Path
		want []*tfplugin6.AttributePath_Step
	}{
		{"empty", cty.Path{}, nil},
		{"attribute", cty.GetAttrPath("name"), []*tfplugin6.AttributePath_Step{attr6("name")}},
		{"list element attribute", cty.GetAttrPath("rule").IndexInt(3).GetAttr("cidr"),
			[]*tfplugin6.AttributePath_Step{attr6("rule"), int6(3), attr6("cidr")}},
		{"map key", cty.GetAttrPath("tags").IndexString("env"), []*tfplugin6.AttributePath_Step{attr6("tags"), str6("env")}},
		{"negative index", cty.GetAttrPath("l").IndexInt(-1), []*tfplugin6.AttributePath_Step{attr6("l"), int6(-1)}},
		{"set element stops the path", cty.GetAttrPath("ingress").Index(setElem).GetAttr("port"),
			[]*tfplugin6.AttributePath_Step{attr6("ingress")}},
		{"unknown key stops the path", cty.GetAttrPath("m").Index(cty.UnknownVal(cty.String)).GetAttr("x"),
			[]*tfplugin6.AttributePath_Step{attr6("m")}},
		{"null key stops the path", cty.GetAttrPath("m").Index(cty.NullVal(cty.String)), []*tfplugin6.AttributePath_Step{attr6("m")}},
		{"fractional key stops the path", cty.GetAttrPath("l").Index(cty.NumberFloatVal(1.5)), []*tfplugin6.AttributePath_Step{attr6("l")}},
		{"key beyond int64 stops the path", cty.GetAttrPath("l").Index(cty.NumberVal(new(big.Float).SetInt(new(big.Int).Lsh(big.NewInt(1), 64)))),
			[]*tfplugin6.AttributePath_Step{attr6("l")}},
		{"marked key", cty.GetAttrPath("m").Index(cty.StringVal("k").Mark("sensitive")), []*tfplugin6.AttributePath_Step{attr6("m"), str6("k")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got6 := PathToProto6(tc.path)
			if want := (&tfplugin6.AttributePath{Steps: tc.want}); !proto.Equal(got6, want) {
				t.Errorf("protocol 6: got %v, want %v", got6, want)
			}
			got5 := PathToProto5(tc.path)
			if want := to5(tc.want); !proto.Equal(got5, want) {
				t.Errorf("protocol 5: got %v, want %v", got5, want)
			}
		})
	}
}

// to5 translates protocol 6 steps to protocol 5, which has the same shape.
func to5(steps []*tfplugin6.AttributePath_Step) *tfplugin5.AttributePath {
	b, _ := proto.Marshal(&tfplugin6.AttributePath{Steps: steps})
	var out tfplugin5.AttributePath
	_ = proto.Unmarshal(b, &out)
	return &out
}

func TestPathFromProtoRoundTrip(t *testing.T) {
	paths := []cty.Path{
		cty.GetAttrPath("a"),
		cty.GetAttrPath("rule").IndexInt(0).GetAttr("ports").IndexInt(9223372036854775807),
		cty.GetAttrPath("tags").IndexString("with \"quotes\" and ☃"),
		cty.GetAttrPath("m").IndexString("").IndexInt(-3),
	}
	for _, path := range paths {
		if got := PathFromProto6(PathToProto6(path)); !got.Equals(path) {
			t.Errorf("protocol 6: %s came back as %s", FormatPath(path), FormatPath(got))
		}
		if got := PathFromProto5(PathToProto5(path)); !got.Equals(path) {
			t.Errorf("protocol 5: %s came back as %s", FormatPath(path), FormatPath(got))
		}
	}
}

func TestPathFromProtoEdges(t *testing.T) {
	if PathFromProto6(nil) != nil || PathFromProto5(nil) != nil {
		t.Error("a nil path must convert to nil")
	}
	withEmptyStep := &tfplugin6.AttributePath{Steps: []*tfplugin6.AttributePath_Step{attr6("a"), {}, nil, int6(2)}}
	if got, want := PathFromProto6(withEmptyStep), cty.GetAttrPath("a").IndexInt(2); !got.Equals(want) {
		t.Errorf("got %s, want %s", FormatPath(got), FormatPath(want))
	}
}

func TestFormatPath(t *testing.T) {
	tests := []struct {
		path cty.Path
		want string
	}{
		{nil, "."},
		{cty.GetAttrPath("a").GetAttr("b"), ".a.b"},
		{cty.GetAttrPath("l").IndexInt(0), ".l[0]"},
		{cty.GetAttrPath("m").IndexString(`x"y`), `.m["x\"y"]`},
		{cty.GetAttrPath("s").Index(cty.True), ".s[...]"},
		{cty.GetAttrPath("u").Index(cty.UnknownVal(cty.Number)), ".u[(known after apply)]"},
	}
	for _, tc := range tests {
		if got := FormatPath(tc.path); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
}
