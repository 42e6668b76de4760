package grpcprovider

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/terrane/terrane/proto/tfplugin5"
	"github.com/terrane/terrane/proto/tfplugin6"
)

// TestProtocol5WireCompatible checks the premise of protocol5Client: every
// pair of messages it re-reads agrees on each field number they share, in
// name, kind and cardinality, all the way down. Schemas are converted field
// by field and are the one allowed exception.
func TestProtocol5WireCompatible(t *testing.T) {
	pairs := []struct{ v6, v5 proto.Message }{
		{&tfplugin6.GetMetadata_Response{}, &tfplugin5.GetMetadata_Response{}},
		{&tfplugin6.GetResourceIdentitySchemas_Response{}, &tfplugin5.GetResourceIdentitySchemas_Response{}},
		{&tfplugin6.ValidateProviderConfig_Request{}, &tfplugin5.PrepareProviderConfig_Request{}},
		{&tfplugin6.ValidateProviderConfig_Response{}, &tfplugin5.PrepareProviderConfig_Response{}},
		{&tfplugin6.ValidateResourceConfig_Request{}, &tfplugin5.ValidateResourceTypeConfig_Request{}},
		{&tfplugin6.ValidateResourceConfig_Response{}, &tfplugin5.ValidateResourceTypeConfig_Response{}},
		{&tfplugin6.ValidateDataResourceConfig_Request{}, &tfplugin5.ValidateDataSourceConfig_Request{}},
		{&tfplugin6.ValidateDataResourceConfig_Response{}, &tfplugin5.ValidateDataSourceConfig_Response{}},
		{&tfplugin6.ValidateEphemeralResourceConfig_Request{}, &tfplugin5.ValidateEphemeralResourceConfig_Request{}},
		{&tfplugin6.ValidateEphemeralResourceConfig_Response{}, &tfplugin5.ValidateEphemeralResourceConfig_Response{}},
		{&tfplugin6.UpgradeResourceState_Request{}, &tfplugin5.UpgradeResourceState_Request{}},
		{&tfplugin6.UpgradeResourceState_Response{}, &tfplugin5.UpgradeResourceState_Response{}},
		{&tfplugin6.UpgradeResourceIdentity_Request{}, &tfplugin5.UpgradeResourceIdentity_Request{}},
		{&tfplugin6.UpgradeResourceIdentity_Response{}, &tfplugin5.UpgradeResourceIdentity_Response{}},
		{&tfplugin6.ConfigureProvider_Request{}, &tfplugin5.Configure_Request{}},
		{&tfplugin6.ConfigureProvider_Response{}, &tfplugin5.Configure_Response{}},
		{&tfplugin6.ReadResource_Request{}, &tfplugin5.ReadResource_Request{}},
		{&tfplugin6.ReadResource_Response{}, &tfplugin5.ReadResource_Response{}},
		{&tfplugin6.PlanResourceChange_Request{}, &tfplugin5.PlanResourceChange_Request{}},
		{&tfplugin6.PlanResourceChange_Response{}, &tfplugin5.PlanResourceChange_Response{}},
		{&tfplugin6.ApplyResourceChange_Request{}, &tfplugin5.ApplyResourceChange_Request{}},
		{&tfplugin6.ApplyResourceChange_Response{}, &tfplugin5.ApplyResourceChange_Response{}},
		{&tfplugin6.ImportResourceState_Request{}, &tfplugin5.ImportResourceState_Request{}},
		{&tfplugin6.ImportResourceState_Response{}, &tfplugin5.ImportResourceState_Response{}},
		{&tfplugin6.MoveResourceState_Request{}, &tfplugin5.MoveResourceState_Request{}},
		{&tfplugin6.MoveResourceState_Response{}, &tfplugin5.MoveResourceState_Response{}},
		{&tfplugin6.ReadDataSource_Request{}, &tfplugin5.ReadDataSource_Request{}},
		{&tfplugin6.ReadDataSource_Response{}, &tfplugin5.ReadDataSource_Response{}},
		{&tfplugin6.OpenEphemeralResource_Request{}, &tfplugin5.OpenEphemeralResource_Request{}},
		{&tfplugin6.OpenEphemeralResource_Response{}, &tfplugin5.OpenEphemeralResource_Response{}},
		{&tfplugin6.RenewEphemeralResource_Request{}, &tfplugin5.RenewEphemeralResource_Request{}},
		{&tfplugin6.RenewEphemeralResource_Response{}, &tfplugin5.RenewEphemeralResource_Response{}},
		{&tfplugin6.CloseEphemeralResource_Request{}, &tfplugin5.CloseEphemeralResource_Request{}},
		{&tfplugin6.CloseEphemeralResource_Response{}, &tfplugin5.CloseEphemeralResource_Response{}},
		{&tfplugin6.GetFunctions_Response{}, &tfplugin5.GetFunctions_Response{}},
		{&tfplugin6.CallFunction_Request{}, &tfplugin5.CallFunction_Request{}},
		{&tfplugin6.CallFunction_Response{}, &tfplugin5.CallFunction_Response{}},
		{&tfplugin6.StopProvider_Request{}, &tfplugin5.Stop_Request{}},
		{&tfplugin6.StopProvider_Response{}, &tfplugin5.Stop_Response{}},
		// GetProviderSchema re-reads only these parts of the answer.
		{&tfplugin6.Diagnostic{}, &tfplugin5.Diagnostic{}},
		{&tfplugin6.ServerCapabilities{}, &tfplugin5.ServerCapabilities{}},
		{&tfplugin6.Function{}, &tfplugin5.Function{}},
	}
	for _, pair := range pairs {
		compareMessages(t, pair.v6.ProtoReflect().Descriptor(), pair.v5.ProtoReflect().Descriptor(), map[protoreflect.FullName]bool{})
	}
}

func compareMessages(t *testing.T, v6, v5 protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) {
	t.Helper()
	if seen[v6.FullName()] {
		return
	}
	seen[v6.FullName()] = true
	fields6 := v6.Fields()
	for i := 0; i < fields6.Len(); i++ {
		f6 := fields6.Get(i)
		f5 := v5.Fields().ByNumber(f6.Number())
		if f5 == nil {
			continue // a field the other version lacks is skipped on read
		}
		where := string(v6.FullName()) + "." + string(f6.Name())
		if f6.Name() != f5.Name() || f6.Kind() != f5.Kind() || f6.Cardinality() != f5.Cardinality() || f6.IsMap() != f5.IsMap() {
			t.Errorf("%s (field %d) differs on the wire from %s.%s", where, f6.Number(), v5.FullName(), f5.Name())
			continue
		}
		switch {
		case f6.IsMap():
			compareField(t, f6.MapValue(), f5.MapValue(), seen)
		case f6.Message() != nil:
			compareField(t, f6, f5, seen)
		}
	}
}

func compareField(t *testing.T, f6, f5 protoreflect.FieldDescriptor, seen map[protoreflect.FullName]bool) {
	t.Helper()
	if f6.Message() == nil {
		return
	}
	if f6.Message().FullName() == "tfplugin6.Schema" {
		return // converted explicitly by schema5to6
	}
	compareMessages(t, f6.Message(), f5.Message(), seen)
}

// TestSchema5to6KeepsAttributeFlags guards the one message that is not
// wire-compatible: write_only and deprecation messages moved between versions.
func TestSchema5to6KeepsAttributeFlags(t *testing.T) {
	in := &tfplugin5.Schema{Version: 3, Block: &tfplugin5.Schema_Block{
		Attributes: []*tfplugin5.Schema_Attribute{{Name: "secret", Type: []byte(`"string"`), Optional: true, WriteOnly: true, Deprecated: true, DeprecationMessage: "use token"}},
		BlockTypes: []*tfplugin5.Schema_NestedBlock{{TypeName: "rule", Nesting: tfplugin5.Schema_NestedBlock_SET, MinItems: 1, MaxItems: 4, Block: &tfplugin5.Schema_Block{}}},
	}}
	decoded := DecodeSchema(&tfplugin6.GetProviderSchema_Response{ResourceSchemas: map[string]*tfplugin6.Schema{"x": schema5to6(in)}})
	s := decoded.ResourceTypes["x"]
	attr := s.Block.Attributes["secret"]
	if s.Version != 3 || attr == nil || !attr.WriteOnly || !attr.Deprecated || !attr.Optional {
		t.Fatalf("converted schema lost attribute flags: version %d, attribute %+v", s.Version, attr)
	}
	rule := s.Block.BlockTypes["rule"]
	if rule == nil || rule.MinItems != 1 || rule.MaxItems != 4 || rule.Nesting.String() != "set" {
		t.Fatalf("converted schema lost the nested block: %+v", rule)
	}
}
