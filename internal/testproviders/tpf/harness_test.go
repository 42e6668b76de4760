package tpf

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/terrane/terrane/internal/testproviders/cloud"
	"github.com/terrane/terrane/internal/testproviders/tfvalue"
)

// harness drives the real protocol 6 server in-process the way a host does.
type harness struct {
	t      *testing.T
	ctx    context.Context
	server tfprotov6.ProviderServer
	schema *tfprotov6.GetProviderSchemaResponse
	cloud  *cloud.Cloud
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{t: t, ctx: context.Background()}
	h.server = providerserver.NewProtocol6(New(Protocol6, "test")())()
	var err error
	h.schema, err = h.server.GetProviderSchema(h.ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "GetProviderSchema", h.schema.Diagnostics)
	h.cloud, err = cloud.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	config := h.object(h.schema.Provider, map[string]tftypes.Value{"root_dir": str(h.cloud.Root)})
	resp, err := h.server.ConfigureProvider(h.ctx, &tfprotov6.ConfigureProviderRequest{
		Config: h.dynamic(h.schema.Provider, config),
	})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "ConfigureProvider", resp.Diagnostics)
	return h
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func requireNoErrors(t *testing.T, call string, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("%s: %s: %s", call, d.Summary, d.Detail)
		}
	}
}

func errorText(diags []*tfprotov6.Diagnostic) string {
	var parts []string
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			parts = append(parts, d.Summary+": "+d.Detail)
		}
	}
	return strings.Join(parts, "\n")
}

func (h *harness) resourceSchema(typeName string) *tfprotov6.Schema {
	s, ok := h.schema.ResourceSchemas[typeName]
	if !ok {
		h.t.Fatalf("provider has no resource type %s", typeName)
	}
	return s
}

// object builds a value of the schema's type from the given attributes,
// null for the rest.
func (h *harness) object(s *tfprotov6.Schema, attrs map[string]tftypes.Value) tftypes.Value {
	objType := s.ValueType().(tftypes.Object)
	vals := make(map[string]tftypes.Value, len(objType.AttributeTypes))
	for name, typ := range objType.AttributeTypes {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(typ, nil)
		}
	}
	for name := range attrs {
		if _, ok := objType.AttributeTypes[name]; !ok {
			h.t.Fatalf("schema has no attribute %q", name)
		}
	}
	return tftypes.NewValue(objType, vals)
}

func (h *harness) dynamic(s *tfprotov6.Schema, v tftypes.Value) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(s.ValueType(), v)
	if err != nil {
		h.t.Fatal(err)
	}
	return &dv
}

func (h *harness) decode(s *tfprotov6.Schema, dv *tfprotov6.DynamicValue) tftypes.Value {
	if dv == nil {
		return tftypes.NewValue(s.ValueType(), nil)
	}
	v, err := dv.Unmarshal(s.ValueType())
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

// proposedNew is the host's proposed new state for top-level attributes:
// the config, with computed attributes left null in config taken from prior.
func proposedNew(s *tfprotov6.Schema, prior, config tftypes.Value) tftypes.Value {
	if prior.IsNull() || config.IsNull() {
		return config
	}
	var priorAttrs, configAttrs map[string]tftypes.Value
	_ = prior.As(&priorAttrs)
	_ = config.As(&configAttrs)
	proposed := make(map[string]tftypes.Value, len(configAttrs))
	for _, attr := range s.Block.Attributes {
		proposed[attr.Name] = configAttrs[attr.Name]
		if attr.Computed && configAttrs[attr.Name].IsNull() {
			proposed[attr.Name] = priorAttrs[attr.Name]
		}
	}
	for _, block := range s.Block.BlockTypes {
		proposed[block.TypeName] = configAttrs[block.TypeName]
	}
	return tftypes.NewValue(config.Type(), proposed)
}

type applied struct {
	state   tftypes.Value
	private []byte
}

func (h *harness) plan(typeName string, prior applied, config tftypes.Value) (*tfprotov6.PlanResourceChangeResponse, tftypes.Value) {
	h.t.Helper()
	s := h.resourceSchema(typeName)
	resp, err := h.server.PlanResourceChange(h.ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName:         typeName,
		PriorState:       h.dynamic(s, prior.state),
		ProposedNewState: h.dynamic(s, proposedNew(s, prior.state, config)),
		Config:           h.dynamic(s, config),
		PriorPrivate:     prior.private,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return resp, h.decode(s, resp.PlannedState)
}

func (h *harness) apply(typeName string, prior applied, planned, config tftypes.Value, plannedPrivate []byte) (*tfprotov6.ApplyResourceChangeResponse, applied) {
	h.t.Helper()
	s := h.resourceSchema(typeName)
	resp, err := h.server.ApplyResourceChange(h.ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName:       typeName,
		PriorState:     h.dynamic(s, prior.state),
		PlannedState:   h.dynamic(s, planned),
		Config:         h.dynamic(s, config),
		PlannedPrivate: plannedPrivate,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return resp, applied{state: h.decode(s, resp.NewState), private: resp.Private}
}

// planApply runs a whole change and fails the test on any error.
func (h *harness) planApply(typeName string, prior applied, attrs map[string]tftypes.Value) applied {
	h.t.Helper()
	s := h.resourceSchema(typeName)
	config := h.object(s, attrs)
	planResp, planned := h.plan(typeName, prior, config)
	requireNoErrors(h.t, "PlanResourceChange", planResp.Diagnostics)
	applyResp, result := h.apply(typeName, prior, planned, config, planResp.PlannedPrivate)
	requireNoErrors(h.t, "ApplyResourceChange", applyResp.Diagnostics)
	return result
}

func (h *harness) read(typeName string, current applied) (*tfprotov6.ReadResourceResponse, tftypes.Value) {
	h.t.Helper()
	s := h.resourceSchema(typeName)
	resp, err := h.server.ReadResource(h.ctx, &tfprotov6.ReadResourceRequest{
		TypeName:     typeName,
		CurrentState: h.dynamic(s, current.state),
		Private:      current.private,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return resp, h.decode(s, resp.NewState)
}

func field(t *testing.T, obj tftypes.Value, name string) tftypes.Value {
	t.Helper()
	var attrs map[string]tftypes.Value
	if err := obj.As(&attrs); err != nil {
		t.Fatal(err)
	}
	v, ok := attrs[name]
	if !ok {
		t.Fatalf("object has no attribute %q", name)
	}
	return v
}

func attrString(t *testing.T, obj tftypes.Value, name string) string {
	t.Helper()
	var s string
	if err := field(t, obj, name).As(&s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// cloudObject returns the stored JSON of an object, or nil if it is absent.
func (h *harness) cloudObject(kind, id string) map[string]any {
	h.t.Helper()
	var obj map[string]any
	if err := h.cloud.Get(kind, id, &obj); err != nil {
		return nil
	}
	return obj
}

func (h *harness) editCloudObject(kind, id string, edit func(map[string]any)) {
	h.t.Helper()
	obj := h.cloudObject(kind, id)
	edit(obj)
	data, _ := json.Marshal(obj)
	if err := h.cloud.PutRaw(kind, id, data); err != nil {
		h.t.Fatal(err)
	}
}

// tftypesToJSON encodes a state the way a host stores it (JSON state).
func tftypesToJSON(v tftypes.Value, s *tfprotov6.Schema) ([]byte, error) {
	return tfvalue.Marshal(v, s.ValueType())
}
