package remotestate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/marks"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/statefile"
	"github.com/terrane/terrane/internal/workdir"
)

var corpus = filepath.Join("..", "..", "states", "statefile", "testdata")

func readConfig(backend string, config map[string]cty.Value, workspace cty.Value, defaults cty.Value) cty.Value {
	cfg := cty.NullVal(cty.DynamicPseudoType)
	if config != nil {
		cfg = cty.ObjectVal(config)
	}
	return cty.ObjectVal(map[string]cty.Value{
		"backend": cty.StringVal(backend), "config": cfg, "defaults": defaults,
		"outputs": cty.NullVal(cty.DynamicPseudoType), "workspace": workspace,
	})
}

// TestLocalBackendMatchesTerraform reads the state file Terraform read when
// it wrote the corpus, and expects the very object Terraform recorded.
func TestLocalBackendMatchesTerraform(t *testing.T) {
	src, err := os.Open(filepath.Join(corpus, "basic.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	file, err := statefile.Read(src)
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := addrs.ParseAbsResourceInstanceStr("data.terraform_remote_state.other")
	recorded, err := file.State.ResourceInstance(addr).Current.Decode(Schema().Block.ImpliedType(), cty.NilType)
	if err != nil {
		t.Fatal(err)
	}
	config := recorded.Value.AsValueMap()
	config["outputs"] = cty.NullVal(cty.DynamicPseudoType)
	t.Chdir(filepath.Join(corpus, "configs", "basic"))

	provider := New(&DataSource{})
	resp := provider.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: TypeName, Config: cty.ObjectVal(config)})
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics)
	}
	if !resp.State.GetAttr("outputs").Equals(recorded.Value.GetAttr("outputs")).True() {
		t.Errorf("outputs = %#v, want %#v", resp.State.GetAttr("outputs"), recorded.Value.GetAttr("outputs"))
	}
}

func TestLocalBackendWorkspacesAndDefaults(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeState(t, filepath.Join("terraform.tfstate.d", "blue", "terraform.tfstate"), `{"version":4,"serial":1,"lineage":"x","outputs":{"color":{"value":"blue","type":"string"},"key":{"value":"k","type":"string","sensitive":true}},"resources":[]}`)
	source := &DataSource{}
	state, ds := source.Read(context.Background(), readConfig("local", nil, cty.StringVal("blue"),
		cty.ObjectVal(map[string]cty.Value{"color": cty.StringVal("none"), "size": cty.NumberIntVal(3)})))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	outputs := state.GetAttr("outputs")
	if outputs.GetAttr("color").AsString() != "blue" || !outputs.GetAttr("size").RawEquals(cty.NumberIntVal(3)) {
		t.Errorf("outputs = %#v; want the state's color and the default size", outputs)
	}
	// As in OpenTofu, sensitivity stays with the state that declared it.
	if outputs.GetAttr("key").HasMark(marks.Sensitive) {
		t.Error("a sensitive output is marked sensitive")
	}
	// As in OpenTofu's local backend, another workspace's file is always
	// named terraform.tfstate, whatever path names for the default one.
	state, ds = source.Read(context.Background(), readConfig("local", map[string]cty.Value{"path": cty.StringVal("custom.tfstate")}, cty.StringVal("blue"), cty.NullVal(cty.DynamicPseudoType)))
	if ds.HasErrors() || state.GetAttr("outputs").GetAttr("color").AsString() != "blue" {
		t.Errorf("workspace blue with path custom.tfstate: %v", ds)
	}
	_, ds = source.Read(context.Background(), readConfig("local", map[string]cty.Value{"path": cty.StringVal("missing.tfstate")}, cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType)))
	if !ds.HasErrors() || ds[0].Summary != "Unable to find remote state" || !strings.HasSuffix(ds[len(ds)-1].Summary, ": Unable to read remote state") {
		t.Errorf("missing file: %v", ds)
	}
}

func writeState(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTerraneBackendReadsAnotherWorkspace reads outputs another workspace
// of the embedded store recorded.
func TestTerraneBackendReadsAnotherWorkspace(t *testing.T) {
	dir := t.TempDir()
	network, closeStore, err := workdir.OpenStore(dir, "default", "network", nil)
	if err != nil {
		t.Fatal(err)
	}
	err = network.WriteOutputs(context.Background(), map[string]*states.OutputValue{
		"vpc_id": {Value: cty.StringVal("vpc-1")},
		"token":  {Value: cty.StringVal("s3cret"), Sensitive: true},
	})
	closeStore()
	if err != nil {
		t.Fatal(err)
	}
	source := &DataSource{OpenWorkspace: WorkingDirWorkspaces(dir), Project: "default"}
	cases := []struct {
		name   string
		config map[string]cty.Value
		ws     cty.Value
	}{
		{"workspace in config", map[string]cty.Value{"workspace": cty.StringVal("network")}, cty.NullVal(cty.String)},
		{"workspace argument", nil, cty.StringVal("network")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state, ds := source.Read(context.Background(), readConfig("terrane", tc.config, tc.ws, cty.NullVal(cty.DynamicPseudoType)))
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			outputs := state.GetAttr("outputs")
			if outputs.GetAttr("vpc_id").AsString() != "vpc-1" || outputs.GetAttr("token").HasMark(marks.Sensitive) {
				t.Errorf("outputs = %#v", outputs)
			}
		})
	}
	_, ds := source.Read(context.Background(), readConfig("terrane", map[string]cty.Value{"workspace": cty.StringVal("nowhere")}, cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType)))
	if !ds.HasErrors() || ds[0].Summary != "Unable to find remote state" {
		t.Errorf("missing workspace: %v", ds)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name   string
		config cty.Value
		want   string
	}{
		{"unsupported backend", readConfig("s3", nil, cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType)), `"s3" is not supported`},
		{"config not strings", readConfig("local", map[string]cty.Value{"path": cty.NumberIntVal(1)}, cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType)), `"path" must be a string`},
		{"defaults not an object", readConfig("local", nil, cty.NullVal(cty.String), cty.StringVal("x")), "defaults argument must be an object"},
	}
	provider := New(&DataSource{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := provider.ValidateDataResourceConfig(context.Background(), providers.ValidateDataResourceConfigRequest{TypeName: TypeName, Config: tc.config})
			if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics[0].Detail, tc.want) {
				t.Errorf("diagnostics = %v, want one saying %q", resp.Diagnostics, tc.want)
			}
		})
	}
	ok := provider.ValidateDataResourceConfig(context.Background(), providers.ValidateDataResourceConfigRequest{TypeName: TypeName,
		Config: readConfig("terrane", map[string]cty.Value{"workspace": cty.StringVal("network")}, cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType))})
	if ok.Diagnostics.HasErrors() {
		t.Errorf("valid configuration refused: %v", ok.Diagnostics)
	}
}
