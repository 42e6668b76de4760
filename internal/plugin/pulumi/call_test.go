package pulumi

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/providers"
)

// TestComponentMethodCall calls Pair's describe as a provider function
// through the real tpulumi process.
func TestComponentMethodCall(t *testing.T) {
	ctx := context.Background()
	p, _, _ := launchTPulumi(t)
	urn := objectURN("tpulumi:index:Pair", "tpulumi_pair-0badf00d")
	self := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(urn), "prefix": cty.StringVal("x")})
	cases := []struct {
		name    string
		args    []cty.Value
		want    cty.Value
		wantErr string
	}{
		{"known component", []cty.Value{self, cty.StringVal(" is a ")}, cty.StringVal("tpulumi_pair-0badf00d is a tpulumi:index:Pair"), ""},
		{"default separator", []cty.Value{self, cty.NullVal(cty.String)}, cty.StringVal("tpulumi_pair-0badf00d tpulumi:index:Pair"), ""},
		{"component not created yet", []cty.Value{cty.ObjectVal(map[string]cty.Value{"id": cty.UnknownVal(cty.String)}), cty.StringVal(":")}, cty.UnknownVal(cty.String), ""},
		{"unknown argument", []cty.Value{self, cty.UnknownVal(cty.String)}, cty.UnknownVal(cty.String), ""},
		{"not a component", []cty.Value{cty.StringVal("p"), cty.StringVal(":")}, cty.NilVal, "must be a tpulumi_pair component"},
		{"too few arguments", []cty.Value{self}, cty.NilVal, "takes 2 arguments"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := p.CallFunction(ctx, providers.CallFunctionRequest{FunctionName: "pair_describe", Arguments: tc.args})
			if tc.wantErr != "" {
				if resp.Err == nil || !strings.Contains(resp.Err.Error(), tc.wantErr) {
					t.Errorf("error = %v, want one saying %q", resp.Err, tc.wantErr)
				}
				return
			}
			if resp.Err != nil {
				t.Fatal(resp.Err)
			}
			if got := resp.Result.GetAttr("result"); !got.RawEquals(tc.want) {
				t.Errorf("result = %#v, want %#v", got, tc.want)
			}
		})
	}
}

// TestComponentImportRefused: a component has no object to import.
func TestComponentImportRefused(t *testing.T) {
	p, _, _ := launchTPulumi(t)
	resp := p.ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: "tpulumi_pair", ID: "x"})
	if !resp.Diagnostics.HasErrors() || resp.Diagnostics[0].Summary != "Components cannot be imported" {
		t.Errorf("import of a component: %v", resp.Diagnostics)
	}
}

// TestComponentMethodBuiltWithSDK calls Duo's shout, served by the Go
// SDK's Call: __self__ arrives as a resource reference the SDK resolves.
func TestComponentMethodBuiltWithSDK(t *testing.T) {
	p, _, _ := launchTPulumi(t)
	urn := objectURN("tpulumi:index:Duo", "tpulumi_duo-0badf00d")
	self := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(urn)})
	resp := p.CallFunction(context.Background(), providers.CallFunctionRequest{FunctionName: "duo_shout", Arguments: []cty.Value{self, cty.StringVal("hey")}})
	if resp.Err != nil {
		t.Fatal(resp.Err)
	}
	if got, want := resp.Result.GetAttr("shouted"), cty.StringVal("HEY from "+urn); !got.RawEquals(want) {
		t.Errorf("shouted = %#v, want %#v", got, want)
	}
}
