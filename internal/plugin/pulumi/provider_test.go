package pulumi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/schema"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// launchTPulumi starts the real pulumi-resource-tpulumi process, configured
// with a fresh cloud directory, and returns it with that directory.
func launchTPulumi(t *testing.T, env ...string) (*Provider, string, *strings.Builder) {
	t.Helper()
	mirror := providertest.Build(t)
	var logs strings.Builder
	logger := hclog.New(&hclog.LoggerOptions{Output: &syncWriter{b: &logs}, Level: hclog.Debug})
	p, err := Launch(context.Background(), Config{Path: mirror.PulumiExecutable("tpulumi"), Env: env, Logger: logger})
	if err != nil {
		t.Fatalf("launching tpulumi: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	root := t.TempDir()
	config := cty.ObjectVal(map[string]cty.Value{"root_dir": cty.StringVal(root), "fail_configure": cty.NullVal(cty.String)})
	if resp := p.ValidateProviderConfig(context.Background(), providers.ValidateProviderConfigRequest{Config: config}); resp.Diagnostics.HasErrors() {
		t.Fatalf("CheckConfig: %v", resp.Diagnostics.Err())
	}
	if resp := p.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{Config: config}); resp.Diagnostics.HasErrors() {
		t.Fatalf("Configure: %v", resp.Diagnostics.Err())
	}
	return p, root, &logs
}

type syncWriter struct{ b *strings.Builder }

func (w *syncWriter) Write(p []byte) (int, error) { return w.b.Write(p) }

// thingConfig is a tpulumi_thing configuration with the given attributes
// set and every other attribute null.
func thingConfig(t *testing.T, p *Provider, set map[string]cty.Value) cty.Value {
	return resourceConfig(t, p, "tpulumi_thing", set)
}

func TestSchemaFromPackage(t *testing.T) {
	p, _, _ := launchTPulumi(t)
	resp := p.GetProviderSchema(context.Background())
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	thing := resp.ResourceTypes["tpulumi_thing"].Block
	if thing == nil {
		t.Fatalf("no tpulumi_thing; resource types: %v", resp.ResourceTypes)
	}
	checks := map[string]func(a *schema.Attribute) bool{
		"name":           func(a *schema.Attribute) bool { return a.Required },
		"size_class":     func(a *schema.Attribute) bool { return a.Optional && a.Computed },
		"password":       func(a *schema.Attribute) bool { return a.Sensitive },
		"content_length": func(a *schema.Attribute) bool { return a.Computed && !a.Optional },
		"tags":           func(a *schema.Attribute) bool { return a.Type.Equals(cty.Map(cty.String)) },
		"settings":       func(a *schema.Attribute) bool { return a.NestedType != nil && a.NestedType.Attributes["mode"].Required },
		"id":             func(a *schema.Attribute) bool { return a.Computed },
	}
	for name, ok := range checks {
		if attr := thing.Attributes[name]; attr == nil || !ok(attr) {
			t.Errorf("attribute %s of tpulumi_thing is %+v", name, attr)
		}
	}
	if ds := resp.DataSources["tpulumi_thing"].Block; ds == nil || !ds.Attributes["id"].Required || !ds.Attributes["content"].Computed {
		t.Errorf("data source tpulumi_thing from getThing: %+v", ds)
	}
	if version, err := p.PluginVersion(context.Background()); err != nil || version != "0.1.0" {
		t.Errorf("GetPluginInfo = %q, %v", version, err)
	}
}

func TestResourceLifecycle(t *testing.T) {
	ctx := context.Background()
	p, root, logs := launchTPulumi(t)
	config := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("alpha"), "content": cty.StringVal("hello"), "password": cty.StringVal("s3cret")})
	ty := config.Type()
	if resp := p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "tpulumi_thing", Config: config}); resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}

	// Create: outputs the preview cannot know are unknown; Check's defaults
	// are planned.
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics.Err())
	}
	planned := plan.PlannedState
	if planned.GetAttr("id").IsKnown() || planned.GetAttr("created_at").IsKnown() {
		t.Errorf("planned id and created_at should be unknown: %#v", planned)
	}
	if got := planned.GetAttr("size_class"); !got.RawEquals(cty.StringVal("small")) {
		t.Errorf("planned size_class = %#v, want the default small", got)
	}
	if got := planned.GetAttr("content_length"); !got.RawEquals(cty.NumberIntVal(5)) {
		t.Errorf("planned content_length = %#v, want 5 from the preview", got)
	}
	nonce := planned.GetAttr("nonce")

	created := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(ty), PlannedState: planned, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if created.Diagnostics.HasErrors() {
		t.Fatal(created.Diagnostics.Err())
	}
	state := created.NewState
	id := state.GetAttr("id").AsString()
	if !state.GetAttr("nonce").RawEquals(nonce) {
		t.Errorf("nonce changed between plan (%#v) and apply (%#v): the random seed was not kept", nonce, state.GetAttr("nonce"))
	}
	if _, err := os.Stat(filepath.Join(root, "tpulumi_thing", id+".json")); err != nil {
		t.Fatalf("the created object is not in the cloud: %v", err)
	}
	if !strings.Contains(logs.String(), "created thing "+id) {
		t.Errorf("the provider's Log message did not reach Terrane's log:\n%s", logs.String())
	}

	// The same configuration plans no change.
	same := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: state, ProposedNewState: config, Config: config, PriorPrivate: created.Private})
	if same.Diagnostics.HasErrors() || !same.PlannedState.RawEquals(state) || len(same.RequiresReplace) != 0 {
		t.Fatalf("unchanged config planned %#v, replace %v, %v", same.PlannedState, same.RequiresReplace, same.Diagnostics.Err())
	}

	// An update in place.
	updatedConfig := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("alpha"), "content": cty.StringVal("hello, world"), "password": cty.StringVal("s3cret")})
	update := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: state, ProposedNewState: updatedConfig, Config: updatedConfig, PriorPrivate: created.Private})
	if update.Diagnostics.HasErrors() || len(update.RequiresReplace) != 0 || update.PlannedState.GetAttr("revision").IsKnown() {
		t.Fatalf("content change planned %#v, replace %v, %v", update.PlannedState, update.RequiresReplace, update.Diagnostics.Err())
	}
	updated := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: state, PlannedState: update.PlannedState, Config: updatedConfig, PlannedPrivate: update.PlannedPrivate})
	if updated.Diagnostics.HasErrors() {
		t.Fatal(updated.Diagnostics.Err())
	}
	if got := updated.NewState.GetAttr("revision"); !got.RawEquals(cty.NumberIntVal(2)) || updated.NewState.GetAttr("id").AsString() != id {
		t.Errorf("after update: revision %#v, id %#v", got, updated.NewState.GetAttr("id"))
	}
	state = updated.NewState

	// A new name replaces (replaceOnChanges and Diff's replaces).
	renamed := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("beta"), "content": cty.StringVal("hello, world")})
	replace := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: state, ProposedNewState: renamed, Config: renamed, PriorPrivate: updated.Private})
	if replace.Diagnostics.HasErrors() || len(replace.RequiresReplace) != 1 || !replace.RequiresReplace[0].Equals(cty.GetAttrPath("name")) {
		t.Fatalf("rename planned replace %v, %v", replace.RequiresReplace, replace.Diagnostics.Err())
	}
	if !replace.DeleteBeforeReplace {
		t.Errorf("tpulumi's Diff asks for deleteBeforeReplace on a rename, but the plan does not say so")
	}

	// Refresh sees drift, then disappearance.
	file := filepath.Join(root, "tpulumi_thing", id+".json")
	raw, _ := os.ReadFile(file)
	_ = os.WriteFile(file, []byte(strings.Replace(string(raw), "hello, world", "drifted", 1)), 0o644)
	read := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "tpulumi_thing", PriorState: state, Private: updated.Private})
	if read.Diagnostics.HasErrors() || read.NewState.GetAttr("content").AsString() != "drifted" {
		t.Fatalf("refresh after drift: %#v, %v", read.NewState, read.Diagnostics.Err())
	}

	// Data source through Invoke.
	dsConfig := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id), "name": cty.NullVal(cty.String), "content": cty.NullVal(cty.String), "size_class": cty.NullVal(cty.String)})
	ds := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: "tpulumi_thing", Config: dsConfig})
	if ds.Diagnostics.HasErrors() || ds.State.GetAttr("content").AsString() != "drifted" || ds.State.GetAttr("name").AsString() != "alpha" {
		t.Fatalf("data source: %#v, %v", ds.State, ds.Diagnostics.Err())
	}

	// Import by ID, completed by Read.
	imported := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "tpulumi_thing", ID: id})
	if imported.Diagnostics.HasErrors() || len(imported.ImportedResources) != 1 {
		t.Fatal(imported.Diagnostics.Err())
	}
	importRead := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "tpulumi_thing", PriorState: imported.ImportedResources[0].State, Private: imported.ImportedResources[0].Private})
	if importRead.Diagnostics.HasErrors() || importRead.NewState.GetAttr("name").AsString() != "alpha" {
		t.Fatalf("import read: %#v, %v", importRead.NewState, importRead.Diagnostics.Err())
	}

	// Delete, then a refresh reports the object gone.
	deleted := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: read.NewState, PlannedState: cty.NullVal(ty), Config: cty.NullVal(ty), PlannedPrivate: read.Private})
	if deleted.Diagnostics.HasErrors() {
		t.Fatal(deleted.Diagnostics.Err())
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the object is still in the cloud after Delete: %v", err)
	}
	gone := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "tpulumi_thing", PriorState: read.NewState, Private: read.Private})
	if gone.Diagnostics.HasErrors() || !gone.NewState.IsNull() {
		t.Errorf("refresh of a deleted object: %#v, %v", gone.NewState, gone.Diagnostics.Err())
	}
}

func TestFailures(t *testing.T) {
	ctx := context.Background()
	p, root, _ := launchTPulumi(t)
	check := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("x"), "fail": cty.StringVal("check")})
	resp := p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "tpulumi_thing", Config: check})
	if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics.Err().Error(), `"fail"`) || !resp.Diagnostics[0].AttributePath.Equals(cty.GetAttrPath("fail")) {
		t.Errorf("check failure should name the attribute fail: %v", resp.Diagnostics.Err())
	}

	// A partial create is returned with its ID, so it is recorded.
	partial := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("x"), "fail": cty.StringVal("partial")})
	ty := partial.Type()
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(ty), ProposedNewState: partial, Config: partial})
	applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: partial, PlannedPrivate: plan.PlannedPrivate})
	if !applied.Diagnostics.HasErrors() || applied.NewState.IsNull() {
		t.Fatalf("partial create: state %#v, %v", applied.NewState, applied.Diagnostics.Err())
	}
	if id := applied.NewState.GetAttr("id").AsString(); !strings.Contains(applied.Diagnostics.Err().Error(), id) {
		t.Errorf("the diagnostic should name the object %s: %v", id, applied.Diagnostics.Err())
	} else if _, err := os.Stat(filepath.Join(root, "tpulumi_thing", id+".json")); err != nil {
		t.Errorf("partially created object missing: %v", err)
	}
}

func TestCancelEndsHungCreate(t *testing.T) {
	ctx := context.Background()
	p, _, _ := launchTPulumi(t)
	config := thingConfig(t, p, map[string]cty.Value{"name": cty.StringVal("slow"), "fail": cty.StringVal("hang")})
	ty := config.Type()
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	done := make(chan providers.ApplyResourceChangeResponse, 1)
	go func() {
		done <- p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "tpulumi_thing", PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	}()
	time.Sleep(300 * time.Millisecond)
	if err := p.StopProvider(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case resp := <-done:
		if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics.Err().Error(), "tpulumi") {
			t.Errorf("cancelled create should fail naming the provider: %v", resp.Diagnostics.Err())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Cancel did not end the hung Create")
	}
}

func TestEngineServiceHealth(t *testing.T) {
	p, _, _ := launchTPulumi(t)
	conn, err := grpc.NewClient(p.EngineAddress(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("engine health check: %v, %v", resp, err)
	}
	if p.Exited() {
		t.Fatal("the provider exited while Terrane was using it")
	}
	p.Close()
	if !p.Exited() {
		t.Error("Close left the provider running")
	}
}

func TestHandshakeFallsBackToConfigure(t *testing.T) {
	p, _, _ := launchTPulumi(t, "TPULUMI_NO_HANDSHAKE=1")
	if !p.acceptSecrets || !p.supportsPreview {
		t.Errorf("Configure's answers not used: acceptSecrets %v, supportsPreview %v", p.acceptSecrets, p.supportsPreview)
	}
}

func TestMalformedPortOutput(t *testing.T) {
	mirror := providertest.Build(t)
	path := mirror.PulumiExecutable("tpulumi")
	_, err := Launch(context.Background(), Config{Path: path, Env: []string{"TPULUMI_BAD_PORT=1"}, Logger: hclog.NewNullLogger()})
	if err == nil {
		t.Fatal("a provider printing no port was accepted")
	}
	for _, want := range []string{path, "listening on a port of my choosing", "refusing to print a port"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("diagnostic lacks %q:\n%v", want, err)
		}
	}
}
